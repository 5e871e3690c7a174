package dev.backplane.plugins.vault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.backplane.kernel.testing.VaultDouble;
import dev.backplane.plugin.api.Connector;
import dev.backplane.plugin.api.Credential;
import dev.backplane.plugin.api.OperationDescriptor;
import dev.backplane.plugin.api.OperationRequest;
import dev.backplane.plugin.api.OperationResult;
import dev.backplane.plugin.api.TargetSpec;
import dev.backplane.plugin.api.testkit.RecordingContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The Vault double answers as Vault does, and the plugin asks as Vault expects: every operation of the
 * catalog is sent through a real session,
 * and every exchange the double recorded is matched to its path in Vault's OpenAPI document
 * ({@code <repo>/../shared/specs/vault-openapi.json}, read in place) — the status must be one the
 * document lists and the answer must validate against that response's schema (the {@code data} of
 * Vault's envelope, or the whole body for the unwrapped {@code sys/seal-status}).
 *
 * <p>Two readings of the document, both Vault's own behaviour: it lists most 204 answers as "200 OK"
 * without a body, so a 204 passes where the documented success has no content; and it is generated from
 * Go types without {@code nullable}, while Vault writes unset maps, slices and pointers as {@code null},
 * so a property may be null; and it types Vault's duration fields (TypeDurationSecond) as strings of
 * format duration, while Vault answers them in whole seconds ({@code "token_ttl": 1200}, as the API docs
 * show), so a duration may be an integer. Vault answers an empty LIST with 404, which the document does not list;
 * that is accepted for LIST requests only. KV v2's PATCH is in Vault's API documentation but missing from
 * the generated document; its documented answer is POST's, so it is checked against POST's schema.
 */
class VaultDoubleContractTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern PARAM = Pattern.compile("\\{([^}]+)}");

    static Path spec() {
        Path repo = null;
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isDirectory(dir.resolve("plugin-api")) && Files.isRegularFile(dir.resolve("pom.xml"))) {
                repo = dir;
            }
        }
        Path spec = repo == null || repo.getParent() == null ? null
                : repo.getParent().resolve("shared/specs/vault-openapi.json");
        assumeTrue(spec != null && Files.isRegularFile(spec), "Vault's OpenAPI document is not at "
                + "<repo>/../shared/specs/vault-openapi.json (looked from " + Path.of("").toAbsolutePath()
                + "); the contract test needs it");
        return spec;
    }

    @Test
    void everyAnswerForEveryOperationValidatesAgainstVaultsOpenApiDocument() throws Exception {
        JsonNode doc = JSON.readTree(spec().toFile());
        try (VaultDouble vault = new VaultDouble("secret")) {
            TargetSpec target = new TargetSpec("v", "vault", "127.0.0.1", vault.port(), Optional.empty(), true,
                    Optional.empty(), Optional.empty(), Map.of("scheme", "http"));
            Set<String> called = new TreeSet<>();
            try (Connector c = new VaultConnectorFactory().open(new RecordingContext(), target,
                    new Credential(Map.of("token", VaultDouble.ROOT_TOKEN)))) {
                c.probe();
                for (OperationRequest call : EveryOperation.calls("contract-value")) {
                    OperationResult r = c.invoke(call);
                    assertThat(r).as(call.toString()).isNotInstanceOf(OperationResult.Failure.class);
                    called.add(call.opId());
                }
            }
            assertThat(called).as("every operation of the catalog is exercised")
                    .containsExactlyInAnyOrderElementsOf(VaultCatalog.CATALOG.operations().stream()
                            .map(OperationDescriptor::opId).toList());

            SchemaRegistry schemas = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
            JsonNode components = nullable(doc.path("components").deepCopy());
            Map<String, Schema> compiledByText = new java.util.HashMap<>();
            List<String> problems = new ArrayList<>();
            Set<String> validated = new TreeSet<>();
            for (VaultDouble.Exchange x : vault.exchanges()) {
                String where = x.method() + " " + x.pathAndQuery() + " -> " + x.status();
                boolean list = x.pathAndQuery().contains("list=true");
                String path = x.pathAndQuery().replaceFirst("\\?.*$", "").substring("/v1".length());
                Optional<JsonNode> op = operation(doc, x.method(), path, list);
                if (op.isEmpty()) {
                    problems.add(where + ": no such operation in Vault's OpenAPI document");
                    continue;
                }
                checkRequest(doc, op.get(), x, where, schemas, compiledByText, components, problems, validated);
                JsonNode responses = op.get().path("responses");
                JsonNode documented = responses.path(Integer.toString(x.status()));
                if (documented.isMissingNode()) {
                    boolean emptySuccess = x.status() == 204 && hasEmptySuccess(responses);
                    boolean emptyList = x.status() == 404 && list;
                    if (!emptySuccess && !emptyList) {
                        problems.add(where + ": status not documented (documented: " + fieldNames(responses) + ")");
                    }
                    continue;
                }
                JsonNode schema = documented.path("content").path("application/json").path("schema");
                if (schema.isMissingNode()) {
                    continue;
                }
                JsonNode body = JSON.readTree(x.responseBody());
                JsonNode payload = body.has("request_id") && body.path("data").isObject() ? body.path("data") : body;
                Schema compiled = compiled(schema, schemas, compiledByText, components);
                compiled.validate(payload).forEach(e -> problems.add(where + ": " + e));
                validated.add(schema.path("$ref").asText("inline"));
            }
            assertThat(problems).isEmpty();
            assertThat(validated).as("response schemas checked").contains("#/components/schemas/KvV2ReadMetadataResponse",
                    "#/components/schemas/KvV2ReadSubkeysResponse", "#/components/schemas/KvV2WriteResponse",
                    "#/components/schemas/SealStatusResponse", "#/components/schemas/StandardListResponse",
                    "#/components/schemas/PoliciesReadAclPolicyResponse", "#/components/schemas/LeasesReadLeaseResponse",
                    "#/components/schemas/PkiListIssuersResponse", "#/components/schemas/PkiReadCertResponse",
                    "#/components/schemas/AppRoleReadRoleResponse", "#/components/schemas/KvV2ReadResponse",
                    "#/components/schemas/PkiIssueWithRoleResponse", "request #/components/schemas/PkiIssueWithRoleRequest",
                    "request #/components/schemas/KvV2WriteRequest", "request #/components/schemas/KvV2DestroyVersionsRequest",
                    "request #/components/schemas/MountsEnableSecretsEngineRequest",
                    "request #/components/schemas/LeasesRevokeLeaseRequest");
        }
    }

    /** {@code schema} compiled once, with the document's {@code components} beside it for its $refs. */
    private static Schema compiled(JsonNode schema, SchemaRegistry schemas, Map<String, Schema> compiledByText,
                                   JsonNode components) {
        return compiledByText.computeIfAbsent(schema.toString(), k -> {
            ObjectNode root = JSON.createObjectNode();
            root.set("components", components);
            root.setAll((ObjectNode) nullable(schema.deepCopy()));
            return schemas.getSchema(root);
        });
    }

    /**
     * A request body must validate against the operation's request schema, and name no top-level field
     * the schema does not declare (the document's schemas do not forbid extra fields themselves).
     */
    private static void checkRequest(JsonNode doc, JsonNode op, VaultDouble.Exchange x, String where,
                                     SchemaRegistry schemas, Map<String, Schema> compiledByText, JsonNode components,
                                     List<String> problems, Set<String> validated) throws Exception {
        JsonNode schema = op.path("requestBody").path("content").path("application/json").path("schema");
        if (x.requestBody().isEmpty() || schema.isMissingNode()) {
            return;
        }
        JsonNode body = JSON.readTree(x.requestBody());
        JsonNode declared = (schema.has("$ref") ? doc.at(schema.path("$ref").asText().substring(1)) : schema)
                .path("properties");
        body.fieldNames().forEachRemaining(f -> {
            if (declared.isObject() && !declared.has(f)) { // a KV v1 body is free-form: no properties declared
                problems.add(where + ": request field '" + f + "' is not in " + schema.path("$ref").asText());
            }
        });
        Schema compiled = compiled(schema, schemas, compiledByText, components);
        compiled.validate(body).forEach(e -> problems.add(where + " request: " + e));
        validated.add("request " + schema.path("$ref").asText("inline"));
    }

    /**
     * The document's operation for a request: Vault treats PUT as POST and LIST as GET on the path with a
     * trailing slash; of the templates that match, the one with the most literal characters wins
     * ({@code /{kv_v2_mount_path}/metadata/{path}} over {@code /{kv_v1_mount_path}/{path}}), and of equals the
 * one whose mount parameter is named like the request's mount ({@code approle_mount_path} for {@code approle}).
     */
    static Optional<JsonNode> operation(JsonNode doc, String method, String path, boolean list) {
        // PATCH of KV v2 data is in Vault's API docs (same answer as POST) but not in the generated document
        String m = method.equals("PUT") || method.equals("PATCH") ? "post" : method.toLowerCase(java.util.Locale.ROOT);
        JsonNode best = null;
        int bestLiteral = -1;
        Iterator<Map.Entry<String, JsonNode>> it = doc.path("paths").fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            String template = e.getKey();
            if (!e.getValue().has(m) || template.endsWith("/") != list) {
                continue;
            }
            if (regex(template).matcher(path).matches()) {
                int literal = 2 * PARAM.matcher(template).replaceAll("").length();
                for (String segment : path.split("/")) {
                    if (!segment.isEmpty() && template.contains("{" + segment + "_mount_path}")) {
                        literal++; // a tie between auth methods' templates: the one named like the mount
                    }
                }
                if (literal > bestLiteral) {
                    best = e.getValue().path(m);
                    bestLiteral = literal;
                }
            }
        }
        return Optional.ofNullable(best);
    }

    /** A template as a regex; a list's trailing {@code {path}/} may be empty (LIST of a mount's root). */
    private static Pattern regex(String template) {
        StringBuilder re = new StringBuilder();
        Matcher p = PARAM.matcher(template);
        int at = 0;
        while (p.find()) {
            re.append(Pattern.quote(template.substring(at, p.start())));
            String name = p.group(1);
            boolean listTail = name.equals("path") && template.substring(p.end()).equals("/");
            re.append(listTail ? "(?:.+/)?" : name.equals("path") || name.equals("prefix") ? ".+" : "[^/]+");
            at = listTail ? template.length() : p.end();
        }
        re.append(Pattern.quote(template.substring(at)));
        return Pattern.compile(re.toString());
    }

    private static boolean hasEmptySuccess(JsonNode responses) {
        for (Iterator<String> it = responses.fieldNames(); it.hasNext(); ) {
            String status = it.next();
            if (status.startsWith("2") && responses.path(status).path("content").isMissingNode()) {
                return true;
            }
        }
        return false;
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> out = new ArrayList<>();
        node.fieldNames().forEachRemaining(out::add);
        return out;
    }

    /** Every property may be null (see the class comment); types of non-null values still hold. */
    private static JsonNode nullable(JsonNode node) {
        if (node.isObject()) {
            ObjectNode o = (ObjectNode) node;
            JsonNode props = o.path("properties");
            if (props.isObject()) {
                props.fields().forEachRemaining(e -> {
                    if (e.getValue() instanceof ObjectNode p && p.path("type").isTextual()) {
                        ArrayNode types = JSON.createArrayNode().add(p.path("type").asText()).add("null");
                        if (p.path("format").asText().equals("duration")) {
                            types.add("integer");
                        }
                        p.set("type", types);
                    }
                });
            }
            o.fields().forEachRemaining(e -> nullable(e.getValue()));
        } else if (node.isArray()) {
            node.forEach(VaultDoubleContractTest::nullable);
        }
        return node;
    }
}
