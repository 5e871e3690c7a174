package dev.backplane.ingest;

import static dev.backplane.plugin.api.IngestedConnector.IN_KEYWORD;
import static dev.backplane.plugin.api.IngestedConnector.NAME_KEYWORD;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.plugin.api.OpClass;
import dev.backplane.plugin.api.OperationDescriptor;
import dev.backplane.plugin.api.OperationGroup;
import dev.backplane.plugin.api.OperationShape;
import dev.backplane.plugin.api.SafetyLevel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every vendor spec in {@code ../shared/specs}, ingested whole and checked against counts taken from its raw text. */
class SpecIngesterRealSpecsTest {

    private static final Pattern OP_ID = Pattern.compile("[a-z0-9][a-z0-9_-]*(\\.[a-z0-9][a-zA-Z0-9_-]*)+");
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{([^}/]+)}");

    static Stream<Arguments> specs() {
        return Stream.of(
                Arguments.of("kubernetes-v1.36-swagger.json", "k8s", "1.36", List.of("unversioned"), 1123, ""),
                Arguments.of("vault-openapi.json", "vault", "1.15", List.of(), 1049, ""),
                Arguments.of("keycloak-23.0.7-openapi.json", "keycloak", "23.x", List.of("1.x"), 316, "/admin/realms"),
                Arguments.of("coolify-openapi-3.1.yaml", "coolify", "4.x", List.of("0.*"), 275, "/api/v1"),
                Arguments.of("harbor-v2.0-swagger.yaml", "harbor", "2.x", List.of(), 203, "/api/v2.0"),
                Arguments.of("argocd-swagger.json", "argocd", "3.x", List.of("*"), 106, ""));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("specs")
    void ingestsWholeSpec(String file, String impl, String label, List<String> compatible, int expectedOperations,
                          String expectedBasePath) throws Exception {
        Path path = RealSpecs.spec(file);
        JsonNode raw = RealSpecs.tree(path);
        List<IngestOptions.Progress> progress = new ArrayList<>();

        long start = System.nanoTime();
        IngestResult result = SpecIngester.ingest(List.of(SpecSource.of(path.toString())),
                new IngestOptions(impl, label, impl, compatible, IngestOptions.DEFAULT_MAX_BYTES, false, progress::add));
        long millis = (System.nanoTime() - start) / 1_000_000;
        System.out.printf("ingested %-32s %5d operations %3d groups %4d warnings in %5d ms%n", file,
                result.catalog().operations().size(), result.catalog().groups().size(), result.warnings().size(), millis);

        List<OperationDescriptor> operations = result.catalog().operations();
        assertThat(RealSpecs.operationCount(raw)).isEqualTo(expectedOperations);
        assertThat(operations).hasSize(expectedOperations);
        assertThat(result.catalog().groups()).extracting(OperationGroup::groupKey)
                .containsExactlyInAnyOrderElementsOf(RealSpecs.groupKeys(raw));
        assertThat(result.basePath()).isEqualTo(expectedBasePath);
        assertThat(result.specs()).singleElement().satisfies(spec -> {
            assertThat(spec.operations()).isEqualTo(expectedOperations);
            assertThat(spec.infoVersion()).isEqualTo(raw.path("info").path("version").asText());
            assertThat(spec.sha256()).hasSize(64);
        });
        assertThat(progress).extracting(IngestOptions.Progress::stage)
                .contains("reading", "parsing", "operations", "done");
        assertThat(progress.stream().filter(p -> p.stage().equals("operations")).count())
                .isGreaterThanOrEqualTo(expectedOperations / 50);

        Set<String> ids = new HashSet<>();
        for (OperationDescriptor op : operations) {
            assertThat(ids.add(op.opId())).as("unique %s", op.opId()).isTrue();
            assertThat(op.opId()).matches(OP_ID).startsWith(impl + "." + op.groupKey() + ".");
            OperationShape.Http http = (OperationShape.Http) op.shape();
            assertSafety(op, http.method());
            JsonNode schema = Schemas.tree(op.paramsSchema());
            try {
                Schemas.compile(op.paramsSchema());
            }
            catch (RuntimeException e) {
                fail("params schema of %s does not compile: %s%n%s", op.opId(), e, op.paramsSchema());
            }
            assertThat(op.paramsSchema().length()).as("schema size of %s", op.opId())
                    .isLessThanOrEqualTo(ParamsSchemaBuilder.MAX_SCHEMA_CHARS + 16 * 1024);
            assertPathParameters(op, http.pathTemplate(), schema);
            for (Map.Entry<String, JsonNode> property : schema.path("properties").properties()) {
                assertThat(property.getValue().path(IN_KEYWORD).asText())
                        .as("%s of %s", property.getKey(), op.opId()).isIn("path", "query", "header", "body");
            }
        }
    }

    private static boolean saysItRemoves(String name) {
        return java.util.Arrays.stream(name.replaceAll("([a-z0-9])([A-Z])", "$1 $2").toLowerCase(java.util.Locale.ROOT)
                .split("[^a-z0-9]+")).anyMatch(w -> w.matches("prune|purge|destroy|delete|remove|wipe|erase|truncate|drop"));
    }

    private static void assertSafety(OperationDescriptor op, String method) {
        switch (method) {
            case "GET", "HEAD", "OPTIONS" -> {
                assertThat(op.safetyLevel()).isEqualTo(SafetyLevel.SAFE);
                // a read that names a secret is a credential read (CredentialReads): it parks for approval
                assertThat(op.opClass()).isIn(OpClass.READ, OpClass.CREDENTIAL_READ);
                assertThat(op.requiresApproval()).isEqualTo(op.opClass() == OpClass.CREDENTIAL_READ);
            }
            case "DELETE" -> {
                assertThat(op.safetyLevel()).isEqualTo(SafetyLevel.DANGEROUS);
                assertThat(op.requiresApproval()).isTrue();
                assertThat(op.opClass()).isEqualTo(OpClass.WRITE);
            }
            default -> {
                assertThat(method).isIn("POST", "PUT", "PATCH");
                if (op.opClass() != OpClass.WRITE) {
                    // a POST whose name says it only reads (search, plan, validate): safe; parks only when it hands
                    // out secrets (ClassificationRealSpecsTest has the cases)
                    assertThat(method).as(op.opId()).isEqualTo("POST");
                    assertThat(op.safetyLevel()).as(op.opId()).isEqualTo(SafetyLevel.SAFE);
                    assertThat(op.requiresApproval()).as(op.opId()).isEqualTo(op.opClass() == OpClass.CREDENTIAL_READ);
                    return;
                }
                // dangerous only where the name or the last literal path segment says it removes things
                assertThat(op.safetyLevel()).as(op.opId()).isEqualTo(saysItRemoves(op.opId())
                        || saysItRemoves(((OperationShape.Http) op.shape()).pathTemplate().replaceAll("(/\\{[^/]+})+$", "")
                        .replaceAll(".*/", "")) ? SafetyLevel.DANGEROUS : SafetyLevel.CAUTION);
                assertThat(op.requiresApproval()).isTrue();
                assertThat(op.opClass()).isEqualTo(OpClass.WRITE);
            }
        }
    }

    /** Each {@code {name}} of the template is a required property bound to the path under that wire name. */
    private static void assertPathParameters(OperationDescriptor op, String template, JsonNode schema) {
        Set<String> required = new HashSet<>();
        schema.path("required").forEach(name -> required.add(name.asText()));
        Matcher placeholders = PLACEHOLDER.matcher(template);
        while (placeholders.find()) {
            String wireName = placeholders.group(1);
            boolean found = false;
            for (Map.Entry<String, JsonNode> property : schema.path("properties").properties()) {
                JsonNode value = property.getValue();
                if (value.path(IN_KEYWORD).asText().equals("path")
                        && value.path(NAME_KEYWORD).asText(property.getKey()).equals(wireName)) {
                    assertThat(required).as("path param %s of %s is required", wireName, op.opId())
                            .contains(property.getKey());
                    found = true;
                }
            }
            assertThat(found).as("path param %s of %s has a property", wireName, op.opId()).isTrue();
        }
    }

    @Test
    void kubernetesBodiesTooLargeToInlineAreDescribedLoosely() throws Exception {
        Path path = RealSpecs.spec("kubernetes-v1.36-swagger.json");
        IngestResult result = SpecIngester.ingest(List.of(SpecSource.of(path.toString())),
                new IngestOptions("k8s", "1.36", "kubernetes", List.of("*"), IngestOptions.DEFAULT_MAX_BYTES, false,
                        p -> { }));
        OperationDescriptor create = find(result, "k8s.core_v1.create_core_v1_namespaced_pod");
        JsonNode body = Schemas.tree(create.paramsSchema()).path("properties").path("body");
        assertThat(body.path("type").asText()).isEqualTo("object");
        assertThat(body.path(IN_KEYWORD).asText()).isEqualTo("body");
        assertThat(body.path("description").asText())
                .isEqualTo("io.k8s.api.core.v1.Pod (schema too large to inline; the vendor validates it)");
        assertThat(result.warnings()).anyMatch(w -> w.contains("POST /api/v1/namespaces/{namespace}/pods:")
                && w.contains("described loosely"));

        // a small body keeps its full schema, with its definitions under $defs
        OperationDescriptor binding = find(result, "k8s.core_v1.create_core_v1_namespaced_binding");
        JsonNode schema = Schemas.tree(binding.paramsSchema());
        assertThat(schema.path("properties").path("body").path("$ref").asText())
                .isEqualTo("#/$defs/io.k8s.api.core.v1.Binding");
        assertThat(schema.path("$defs").has("io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta")).isTrue();
        // the recursive JSONSchemaProps stays a ref to itself
        OperationDescriptor crd = find(result, "k8s.apiextensions_v1.list_apiextensions_v1_custom_resource_definition");
        assertThat(crd.resultKind()).isEqualTo(dev.backplane.plugin.api.ResultKind.OBJECT);
        OperationDescriptor patch = find(result, "k8s.core_v1.patch_core_v1_namespaced_pod");
        assertThat(Schemas.tree(patch.paramsSchema()).path("properties").path("body").path("x-svc-content-type").asText())
                .isEqualTo("application/json-patch+json");
    }

    @Test
    void keycloakGroupsComeFromTagsAndBasePathFromServers() throws Exception {
        Path path = RealSpecs.spec("keycloak-23.0.7-openapi.json");
        IngestResult result = SpecIngester.ingest(List.of(SpecSource.of(path.toString())),
                new IngestOptions("keycloak", "23.x", "keycloak", List.of("1.x"), IngestOptions.DEFAULT_MAX_BYTES,
                        false, p -> { }));
        assertThat(result.basePath()).isEqualTo("/admin/realms");
        OperationDescriptor users = result.catalog().operations().stream()
                .filter(op -> ((OperationShape.Http) op.shape()).pathTemplate().equals("/{realm}/users")
                        && ((OperationShape.Http) op.shape()).method().equals("GET"))
                .findFirst().orElseThrow();
        assertThat(users.opId()).isEqualTo("keycloak.users.get_users_by_realm");
        assertThat(users.resultKind()).isEqualTo(dev.backplane.plugin.api.ResultKind.SET);
        assertThat(result.catalog().groups()).anySatisfy(group -> {
            assertThat(group.groupKey()).isEqualTo("users");
            assertThat(group.displayName()).isEqualTo("Users");
        });
    }

    private static OperationDescriptor find(IngestResult result, String opId) {
        return result.catalog().operations().stream().filter(op -> op.opId().equals(opId)).findFirst()
                .orElseThrow(() -> new AssertionError("no op " + opId + " among "
                        + result.catalog().operations().stream().map(OperationDescriptor::opId)
                        .filter(id -> id.contains(opId.substring(opId.lastIndexOf('.') + 1, opId.lastIndexOf('.') + 8)))
                        .toList()));
    }
}
