package dev.backplane.plugin.api.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.backplane.plugin.api.Catalog;
import dev.backplane.plugin.api.Connector;
import dev.backplane.plugin.api.ConnectorDescriptor;
import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.ConnectorFactory;
import dev.backplane.plugin.api.Credential;
import dev.backplane.plugin.api.ErrorCode;
import dev.backplane.plugin.api.Fingerprint;
import dev.backplane.plugin.api.OperationDescriptor;
import dev.backplane.plugin.api.OperationGroup;
import dev.backplane.plugin.api.OperationRequest;
import dev.backplane.plugin.api.OperationResult;
import dev.backplane.plugin.api.TargetSpec;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The connector conformance kit: every plugin's tests extend this and supply a factory, a reachable
 * target, a good and a bad credential, and sample calls. It checks the contract the kernel relies on:
 * a valid descriptor, a schema and safety level on every operation, well-formed ids, a probe that
 * answers, errors that map to codes, and credential values that never leak into results, errors,
 * {@code toString()} or logs.
 */
public abstract class ConnectorConformanceTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * What a plugin's test supplies: the implementation under test, a target the test can reach (typically a
     * protocol-level fake on loopback), a credential the target accepts, one it rejects at session
     * establishment or on first use, calls that must each succeed against the target, and every secret value
     * that must never appear in output.
     */
    protected record Subject(ConnectorFactory factory, TargetSpec reachableTarget, Credential goodCredential,
                             Credential rejectedCredential, List<OperationRequest> sampleCalls, Set<String> secretValues) {

        /** A subject whose secret values are all fields of both credentials. */
        public Subject(ConnectorFactory factory, TargetSpec reachableTarget, Credential goodCredential,
                       Credential rejectedCredential, List<OperationRequest> sampleCalls) {
            this(factory, reachableTarget, goodCredential, rejectedCredential, sampleCalls,
                    credentialValues(goodCredential, rejectedCredential));
        }

        /** This subject with other secret values. */
        public Subject withSecretValues(Set<String> values) {
            return new Subject(factory, reachableTarget, goodCredential, rejectedCredential, sampleCalls, values);
        }

        /** This subject with another factory (a test of the kit itself wraps the real one). */
        public Subject withFactory(ConnectorFactory other) {
            return new Subject(other, reachableTarget, goodCredential, rejectedCredential, sampleCalls, secretValues);
        }
    }

    /** The subject of this test; called once per test, after the class's fixtures have started. */
    protected abstract Subject subject() throws Exception;

    /** A sample call of {@code op} with {@code params} (for the subject's calls), without a preview hash. */
    protected static OperationRequest sampleCall(String op, Map<String, Object> params) {
        return new OperationRequest(op, params, Optional.empty());
    }

    /** Every field of the credentials of four characters or more: the default secret values. */
    protected static Set<String> credentialValues(Credential... credentials) {
        Set<String> secrets = new HashSet<>();
        for (Credential c : credentials) {
            for (String name : c.names()) {
                String v = c.field(name);
                if (v.length() >= 4) {
                    secrets.add(v);
                }
            }
        }
        return secrets;
    }

    private Subject subject;

    private Subject the() {
        if (subject == null) {
            try {
                subject = subject();
            } catch (Exception e) {
                throw new IllegalStateException("the conformance subject could not be built", e);
            }
        }
        return subject;
    }

    private ConnectorFactory factory() {
        return the().factory();
    }

    private TargetSpec reachableTarget() {
        return the().reachableTarget();
    }

    private Credential goodCredential() {
        return the().goodCredential();
    }

    private Credential rejectedCredential() {
        return the().rejectedCredential();
    }

    private List<OperationRequest> sampleCalls() {
        return the().sampleCalls();
    }

    @Test
    public void descriptorIsValid() {
        ConnectorDescriptor d = factory().descriptor();
        assertNotNull(d);
        assertEquals(d.implId() + "-" + d.version(), d.connectorId());
        assertFalse(d.products().isEmpty(), "serves at least one product");
        assertFalse(d.supportedVersions().isEmpty(), "names supported version ranges");
    }

    @Test
    public void everyOperationHasAValidSchemaASafetyLevelAndAGroup() throws Exception {
        Catalog catalog = factory().catalog();
        assertFalse(catalog.operations().isEmpty(), "publishes at least one operation");
        Set<String> groups = new HashSet<>();
        for (OperationGroup g : catalog.groups()) {
            groups.add(g.groupKey());
            assertFalse(g.displayName().isBlank(), "group " + g.groupKey() + " has a display name");
        }
        SchemaRegistry schemas = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
        for (OperationDescriptor op : catalog.operations()) {
            assertTrue(groups.contains(op.groupKey()), op.opId() + " is in a declared group");
            assertNotNull(op.safetyLevel(), op.opId() + " has a safety level");
            assertFalse(op.description().isBlank(), op.opId() + " has a description");
            JsonNode schema = JSON.readTree(op.paramsSchema());
            assertTrue(schema.isObject(), op.opId() + " schema is a JSON object");
            assertEquals("object", schema.path("type").asText(), op.opId() + " params are an object");
            var compiled = schemas.getSchema(schema);
            compiled.initializeValidators(); // every keyword and $ref now: malformed schemas throw
            compiled.validate(JSON.createObjectNode());
        }
    }

    @Test
    public void idsAreWellFormedAndUnique() {
        Set<String> ids = new HashSet<>();
        for (OperationDescriptor op : factory().catalog().operations()) {
            assertTrue(op.opId().matches("[a-z0-9][a-z0-9_-]*(\\.[a-z0-9][a-zA-Z0-9_-]*)+"), op.opId());
            assertTrue(ids.add(op.opId()), "unique: " + op.opId());
        }
    }

    @Test
    public void probeAnswers() {
        RecordingContext ctx = new RecordingContext();
        try (Connector c = factory().open(ctx, reachableTarget(), goodCredential())) {
            Fingerprint f = c.probe();
            assertTrue(f.reachable(), "the probe reached the target");
            assertFalse(f.probeMethod().isBlank(), "the probe says how it identified the target");
        }
    }

    @Test
    public void sampleCallsSucceed() {
        RecordingContext ctx = new RecordingContext();
        assertFalse(sampleCalls().isEmpty(), "a conformance subject names at least one sample call");
        try (Connector c = factory().open(ctx, reachableTarget(), goodCredential())) {
            for (OperationRequest call : sampleCalls()) {
                OperationResult r = c.invoke(call);
                if (r instanceof OperationResult.Failure f) {
                    fail(call.opId() + " failed: " + f.code() + " " + f.message());
                }
            }
        }
    }

    @Test
    public void errorsMapToCodes() {
        RecordingContext ctx = new RecordingContext();
        try (Connector c = factory().open(ctx, reachableTarget(), goodCredential())) {
            ErrorCode unknown = codeOf(() -> c.invoke(new OperationRequest("no.such.operation", Map.of(), Optional.empty())));
            assertEquals(ErrorCode.UNKNOWN_OPERATION, unknown, "an unknown op id is unknown_operation");
        }
        ErrorCode rejected = codeOf(() -> {
            try (Connector c = factory().open(ctx, reachableTarget(), rejectedCredential())) {
                return c.probe() == null ? null : c.invoke(sampleCalls().getFirst());
            }
        });
        assertEquals(ErrorCode.CONNECTOR_AUTH_FAILED, rejected, "a rejected credential is connector_auth_failed");
        ErrorCode missing = codeOf(() -> {
            try (Connector c = factory().open(ctx, reachableTarget(), new Credential(Map.of()))) {
                return c.invoke(sampleCalls().getFirst());
            }
        });
        assertEquals(ErrorCode.CONNECTOR_ERROR, missing, "a credential without the needed fields is connector_error");
    }

    @Test
    public void credentialValuesNeverAppearInResultsErrorsOrLogs() {
        RecordingContext ctx = new RecordingContext();
        List<String> seen = new ArrayList<>();
        seen.add(goodCredential().toString());
        seen.add(rejectedCredential().toString());
        try (Connector c = factory().open(ctx, reachableTarget(), goodCredential())) {
            seen.add(String.valueOf(c.probe()));
            for (OperationRequest call : sampleCalls()) {
                seen.add(String.valueOf(c.invoke(call)));
                seen.add(String.valueOf(c.preview(call)));
            }
        }
        try (Connector c = factory().open(ctx, reachableTarget(), rejectedCredential())) {
            seen.add(String.valueOf(c.invoke(sampleCalls().getFirst())));
        } catch (RuntimeException e) {
            seen.add(e.toString());
            seen.add(String.valueOf(e.getCause()));
            if (e instanceof ConnectorException ce) {
                seen.add(String.valueOf(ce.extras()));
            }
        }
        seen.addAll(ctx.logLines());
        // with no secret of four characters or more the sweep below would pass empty (test-honesty F20)
        assertFalse(the().secretValues().isEmpty(), "the subject's credentials give the leak check something to find");
        for (String secret : the().secretValues()) {
            for (String text : seen) {
                assertFalse(text.contains(secret), "a credential value leaked into: " + text);
            }
        }
    }

    private static ErrorCode codeOf(java.util.function.Supplier<OperationResult> call) {
        try {
            OperationResult r = call.get();
            return r instanceof OperationResult.Failure f ? f.code() : null;
        } catch (ConnectorException e) {
            return e.code();
        }
    }
}
