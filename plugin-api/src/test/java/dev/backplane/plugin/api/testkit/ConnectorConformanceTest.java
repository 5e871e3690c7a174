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

    /** The implementation under test. */
    protected abstract ConnectorFactory factory();

    /** A target this test can reach (typically a protocol-level fake on loopback). */
    protected abstract TargetSpec reachableTarget();

    /** A credential the target accepts. */
    protected abstract Credential goodCredential();

    /** A credential the target rejects at session establishment or on first use. */
    protected abstract Credential rejectedCredential();

    /** Calls that exercise the connector; each must succeed against {@link #reachableTarget()}. */
    protected abstract List<OperationRequest> sampleCalls();

    /** A sample call of {@code op} with {@code params} (for {@link #sampleCalls()}), without a preview hash. */
    protected static OperationRequest sampleCall(String op, Map<String, Object> params) {
        return new OperationRequest(op, params, Optional.empty());
    }

    /** Every secret value that must never appear in output; default: all fields of both credentials. */
    protected Set<String> secretValues() {
        Set<String> secrets = new HashSet<>();
        for (Credential c : List.of(goodCredential(), rejectedCredential())) {
            for (String name : c.names()) {
                String v = c.field(name);
                if (v.length() >= 4) {
                    secrets.add(v);
                }
            }
        }
        return secrets;
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
        for (String secret : secretValues()) {
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

    private final RecordingContext ctx = new RecordingContext();
}
