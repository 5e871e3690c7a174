package dev.backplane.kernel.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.backplane.ingest.IngestOptions;
import dev.backplane.ingest.IngestResult;
import dev.backplane.ingest.SpecSource;
import dev.backplane.plugin.api.OpClass;
import dev.backplane.plugin.api.OperationDescriptor;
import dev.backplane.plugin.api.OperationShape;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reads whose answers carry secret values are ingested as credential reads: the shipped catalog index's
 * entries, each run through the kernel's ingest against its real vendor spec (read in place from
 * {@code ../shared/specs} or the index's own {@code plugin-repo/specs}), and manual mode's heuristic.
 */
class CredentialReadsTest {

    private static final Path SHARED_SPECS = Path.of(System.getProperty("svc.shared.dir", "../../shared"))
            .resolve("specs");
    private static final Path INDEX = Path.of("../plugin-repo/catalog-index.json");
    /** The pinned upstream URL of each index entry and its byte-for-byte copy in shared/specs (SOURCES.md). */
    private static final Map<String, String> LOCAL_COPIES = Map.of(
            "https://raw.githubusercontent.com/ccouzens/keycloak-openapi/9068318ff6680c14100219b51ad6ffef4fb322c8/keycloak/23.0.7.json",
            "keycloak-23.0.7-openapi.json",
            "https://raw.githubusercontent.com/hashicorp/vault-client-go/a0f17ccb92501f7b7ad1bf5188b404383f08a45f/openapi.json",
            "vault-openapi.json",
            "https://raw.githubusercontent.com/argoproj/argo-cd/37ee0097cf851bc2dd7665fc081bbce61a7e836e/assets/swagger.json",
            "argocd-swagger.json",
            "https://raw.githubusercontent.com/goharbor/harbor/c50c7ddd6ea4e335a480b49c618281882ab7eec9/api/v2.0/swagger.yaml",
            "harbor-v2.0-swagger.yaml",
            "https://raw.githubusercontent.com/coollabsio/coolify/379abb252621f34b318190bd49b614aed9818716/openapi.yaml",
            "coolify-openapi-3.1.yaml",
            "https://raw.githubusercontent.com/kubernetes-client/python/024658493d124f046fc0a9827a2a3165cf2aee28/kubernetes/swagger.json.unprocessed",
            "kubernetes-v1.36-swagger.json");

    /** Reads of each entry that hand out secret values and must be credential reads. */
    private static final Map<String, List<String>> MUST_BE_CREDENTIAL_READS = Map.ofEntries(
            Map.entry("keycloak/23.x", List.of("GET /{realm}/clients/{id}/client-secret",
                    "GET /{realm}/clients/{id}/client-secret/rotated", "GET /{realm}/clients/{id}",
                    "GET /{realm}/clients", "GET /{realm}/users/{id}/credentials",
                    "GET /{realm}/clients/{id}/evaluate-scopes/generate-example-access-token")),
            Map.entry("vault/1.x", List.of("GET /{kv_v2_mount_path}/data/{path}", "GET /{kv_v1_mount_path}/{path}",
                    "GET /auth/token/lookup-self", "GET /{database_mount_path}/creds/{name}",
                    "GET /{transit_mount_path}/export/{type}/{name}", "GET /{totp_mount_path}/code/{name}")),
            Map.entry("argocd/3.x", List.of("GET /api/v1/repositories/{repo}", "GET /api/v1/repocreds")),
            Map.entry("harbor/2.x", List.of("GET /robots/{robot_id}", "GET /scanners/{registration_id}")),
            Map.entry("coolify/4.x", List.of("GET /security/keys/{uuid}", "GET /applications/{uuid}",
                    "GET /applications/{uuid}/envs", "GET /databases/{uuid}")),
            Map.entry("k8s/1.36", List.of("GET /api/v1/namespaces/{namespace}/secrets/{name}",
                    "GET /api/v1/secrets")),
            Map.entry("sddc-manager/9.x", List.of("GET /v1/credentials", "GET /v1/credentials/{id}")),
            Map.entry("hetzner-robot/1.x", List.of("GET /boot/{server_number}/rescue")),
            Map.entry("vcfa/9.x", List.of("GET /blueprint/api/blueprint-integrations/terraform/versions")));

    /** Reads the index clears (metadata only) or that the heuristic leaves alone: they stay plain reads. */
    private static final Map<String, List<String>> MUST_STAY_READS = Map.of(
            "keycloak/23.x", List.of("GET /", "GET /{realm}", "GET /{realm}/users", "GET /{realm}/keys"),
            "sddc-manager/9.x", List.of("GET /v1/credentials/expirations/{id}", "GET /v1/domains"),
            "k8s/1.36", List.of("GET /api/v1/namespaces/{namespace}/pods", "GET /api/v1/serviceaccounts"));

    @Test
    void everyShippedCatalogEntryIngestedFromItsRealSpecMarksItsCredentialReads() throws Exception {
        assumeTrue(Files.isDirectory(SHARED_SPECS), "vendor specs not found at " + SHARED_SPECS.toAbsolutePath());
        CatalogIndex index = CatalogIndex.load(INDEX);
        assertThat(index.entries()).hasSizeGreaterThanOrEqualTo(12);
        Map<String, Set<String>> found = new TreeMap<>();
        for (CatalogIndex.Entry e : index.entries()) {
            String key = e.product() + "/" + e.version();
            List<SpecSource> sources = e.specs().stream().map(CredentialReadsTest::localCopy).toList();
            IngestResult result = SpecIngestService.convert(sources, SpecIngestService.options(e, 64L << 20));
            assertThat(result.warnings()).as(key + ": the index's credential_reads and not_credential_reads "
                    + "match the spec").noneMatch(w -> w.contains("credential read"));
            Map<String, OperationDescriptor> ops = result.catalog().operations().stream().collect(Collectors.toMap(
                    CredentialReadsTest::route, op -> op, (a, b) -> a));
            Set<String> credentialReads = new TreeSet<>();
            ops.forEach((route, op) -> {
                if (op.opClass() == OpClass.CREDENTIAL_READ) {
                    credentialReads.add(route);
                    assertThat(op.requiresApproval()).as(key + " " + route + " parks for approval").isTrue();
                    assertThat(op.isReadClass()).as(key + " " + route + ": enable-reads leaves it off").isFalse();
                }
            });
            found.put(key, credentialReads);
            assertThat(credentialReads).as(key + ": the index's credential_reads").containsAll(e.credentialReads());
            assertThat(credentialReads).as(key).containsAll(MUST_BE_CREDENTIAL_READS.getOrDefault(key, List.of()));
            Set<String> plain = new TreeSet<>(e.notCredentialReads());
            plain.addAll(MUST_STAY_READS.getOrDefault(key, List.of()));
            assertThat(credentialReads).as(key).noneMatch(plain::contains);
            for (String route : MUST_STAY_READS.getOrDefault(key, List.of())) {
                assertThat(ops.get(route)).as(key + " " + route).isNotNull()
                        .extracting(OperationDescriptor::opClass).isEqualTo(OpClass.READ);
            }
        }
        assertThat(found.keySet()).containsAll(MUST_BE_CREDENTIAL_READS.keySet());
        Files.createDirectories(Path.of("target"));
        Files.writeString(Path.of("target/credential-reads.txt"), found.entrySet().stream()
                .map(x -> x.getKey() + " (" + x.getValue().size() + ")\n  " + String.join("\n  ", x.getValue()))
                .collect(Collectors.joining("\n")) + "\n");
    }

    @Test
    void manualModeMarksReadsThatNameASecretAndTheIndexCanOnlyClearWithAReason(@TempDir Path dir) throws Exception {
        Path spec = Files.writeString(dir.resolve("fleet.yaml"), """
                openapi: 3.0.3
                info: {title: fleet, version: 9.0.0}
                paths:
                  /v1/credentials:
                    get: {operationId: list_credentials, responses: {"200": {description: ok}}}
                  /v1/hosts/{id}/ssh-keys:
                    get: {operationId: host_keys, parameters: [{name: id, in: path, required: true, schema: {type: string}}],
                          responses: {"200": {description: ok}}}
                  /v1/tokens:
                    get: {operationId: list_tokens, responses: {"200": {description: ok}}}
                  /v1/proxy:
                    get:
                      operationId: get_proxy
                      responses: {"200": {description: ok, content: {application/json: {schema: {$ref: "#/components/schemas/Proxy"}}}}}
                  /v1/hosts:
                    get:
                      operationId: list_hosts
                      responses: {"200": {description: ok, content: {application/json: {schema: {$ref: "#/components/schemas/Hosts"}}}}}
                  /v1/keys:
                    get:
                      operationId: list_keys
                      responses: {"200": {description: ok, content: {application/json: {schema: {type: array, items: {$ref: "#/components/schemas/PrivateKey"}}}}}}
                  /v1/credentials/rotate:
                    post: {operationId: rotate, responses: {"200": {description: ok}}}
                components:
                  schemas:
                    Proxy: {type: object, properties: {host: {type: string}, proxyPassword: {type: string}}}
                    Hosts:
                      type: object
                      properties:
                        elements:
                          type: array
                          items:
                            type: object
                            properties:
                              name: {type: string}
                              secretName: {type: string}
                              automountServiceAccountToken: {type: boolean}
                              tokenType: {type: string}
                              secretRef: {type: object, properties: {name: {type: string}}}
                    PrivateKey: {type: object, properties: {name: {type: string}}}
                """);
        Map<String, OpClass> manual = classes(spec, new IngestOptions("fleet", "9.x", "fleet", List.of(), 1 << 20,
                false, p -> { }));
        assertThat(manual).containsEntry("GET /v1/credentials", OpClass.CREDENTIAL_READ)
                .containsEntry("GET /v1/hosts/{id}/ssh-keys", OpClass.CREDENTIAL_READ)
                .containsEntry("GET /v1/tokens", OpClass.CREDENTIAL_READ)
                .containsEntry("GET /v1/proxy", OpClass.CREDENTIAL_READ)
                .containsEntry("GET /v1/keys", OpClass.CREDENTIAL_READ)
                .containsEntry("GET /v1/hosts", OpClass.READ)
                .containsEntry("POST /v1/credentials/rotate", OpClass.WRITE);

        // catalog mode: the index lists one more and clears /v1/tokens (metadata only) with its reason
        Files.writeString(dir.resolve("index.json"), """
                {"connectors": [{"product": "fleet", "version": "9.x", "specs": ["fleet.yaml"],
                  "credential_reads": [" GET /v1/hosts "],
                  "not_credential_reads": {"GET /v1/tokens": "names and expiry dates only, never a token value",
                                           "GET /v1/nosuch": "stale"}}]}""");
        CatalogIndex.Entry entry = CatalogIndex.load(dir.resolve("index.json")).find("fleet/9.x").orElseThrow();
        IngestResult result = SpecIngestService.convert(List.of(SpecSource.of(spec.toString())),
                SpecIngestService.options(entry, 1 << 20));
        Map<String, OpClass> catalog = classes(result);
        assertThat(catalog).containsEntry("GET /v1/hosts", OpClass.CREDENTIAL_READ)
                .containsEntry("GET /v1/tokens", OpClass.READ)
                .containsEntry("GET /v1/credentials", OpClass.CREDENTIAL_READ);
        assertThat(result.warnings()).contains(
                "the catalog index clears 'GET /v1/nosuch' as not a credential read, which the spec does not have");

        Files.writeString(dir.resolve("bad.json"), """
                {"connectors": [{"product": "fleet", "version": "9.x", "specs": ["fleet.yaml"],
                  "not_credential_reads": {"GET /v1/tokens": " "}}]}""");
        assertThat(CatalogIndex.load(dir.resolve("bad.json")).entries()).as("a clearing without its reason makes the "
                + "index unusable").isEmpty();
    }

    private static Map<String, OpClass> classes(Path spec, IngestOptions options) {
        return classes(SpecIngestService.convert(List.of(SpecSource.of(spec.toString())), options));
    }

    private static Map<String, OpClass> classes(IngestResult result) {
        return result.catalog().operations().stream().collect(Collectors.toMap(CredentialReadsTest::route,
                OperationDescriptor::opClass));
    }

    private static String route(OperationDescriptor op) {
        OperationShape.Http http = (OperationShape.Http) op.shape();
        return http.method() + " " + http.pathTemplate();
    }

    private static SpecSource localCopy(String location) {
        if (!location.contains("://")) {
            return SpecSource.of(location);
        }
        String copy = LOCAL_COPIES.get(location);
        assertThat(copy).as("the catalog index names " + location + "; add its byte-for-byte copy in shared/specs "
                + "to LOCAL_COPIES").isNotNull();
        Path p = SHARED_SPECS.resolve(copy);
        assumeTrue(Files.isRegularFile(p), "vendor spec " + p + " is absent");
        return SpecSource.of(p.toString());
    }
}
