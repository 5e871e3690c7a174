package dev.backplane.plugins.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.backplane.kernel.testing.CliRunner;
import dev.backplane.kernel.testing.OperationCalls;
import dev.backplane.kernel.testing.TempDirs;
import dev.backplane.kernel.testing.TestIssuer;
import dev.backplane.kernel.testing.TestKernel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A real kernel for replay tests of ingested vendor families: the generic-openapi plugin, and a
 * catalog index made of the <em>shipped</em> index's entries for the named products (so their auth
 * scheme, groups and probe are the ones users get), each spec pointed at a file on disk — a given
 * override (a spec read in place from {@code ../shared/specs}) or the shipped relative path resolved
 * against {@code plugin-repo/}. One tenant with two tenant_admins (a four-eyes pair) and an operator.
 * Every answer {@link #call} returns is checked to carry no staged secret and no contract violation.
 *
 * @param work a scratch directory for the test (key stores, files)
 * @param issuer the token issuer the kernel trusts
 * @param kernel the kernel
 * @param cli the CLI, signed in as a platform admin of the tenant
 * @param admin the first tenant_admin's token
 * @param admin2 the second tenant_admin's token (the four-eyes approver)
 * @param operator the operator's token
 * @param secrets the values of every staged secret, which no answer may contain
 * @param tenant the tenant
 */
record ReplayKernel(Path work, TestIssuer issuer, TestKernel kernel, CliRunner cli, String admin, String admin2,
                    String operator, Set<String> secrets, UUID tenant) implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path PLUGIN_REPO = Path.of("../../plugin-repo").toAbsolutePath().normalize();

    /** A kernel with one new tenant whose admins and operator sign in with {@code issuer}'s tokens. */
    private static ReplayKernel of(Path work, TestIssuer issuer, TestKernel kernel) {
        UUID tenant = UUID.randomUUID();
        CliRunner cli = new CliRunner(work.resolve("cli")).env("SVC_TOKEN", issuer.platformAdminToken("platform-1", tenant))
                .env("SVC_BACKPLANE", kernel.url()).env("SVC_INSECURE_ALLOW_HTTP", "1");
        return new ReplayKernel(work, issuer, kernel, cli, issuer.token("admin-1", tenant, "tenant_admin"),
                issuer.token("admin-2", tenant, "tenant_admin"), issuer.token("operator-1", tenant, "operator"),
                ConcurrentHashMap.newKeySet(), tenant);
    }

    /** A spec beside the repository in {@code ../shared/specs}, or null when it is not there. */
    static Path sharedSpec(String file) {
        Path p = Path.of(System.getProperty("svc.shared.dir", "../../../shared")).resolve("specs").resolve(file)
                .toAbsolutePath().normalize();
        return Files.isRegularFile(p) ? p : null;
    }

    /**
     * Starts a kernel whose index holds the shipped entries of {@code products}; {@code specOverrides}
     * replaces a product's spec list with one file.
     */
    static ReplayKernel start(List<String> products, Map<String, Path> specOverrides) throws IOException {
        return start(products, specOverrides, Map.of());
    }

    /** As above, with kernel settings by environment-variable name added to (or replacing) the test defaults. */
    static ReplayKernel start(List<String> products, Map<String, Path> specOverrides, Map<String, String> settings)
            throws IOException {
        Path work = TempDirs.create("svc-replay-it");
        Path plugins = Files.createDirectories(work.resolve("plugins"));
        Files.copy(Path.of(System.getProperty("generic-openapi.plugin.jar")), plugins.resolve("generic-openapi.jar"));
        JsonNode shipped = JSON.readTree(PLUGIN_REPO.resolve("catalog-index.json").toFile());
        List<JsonNode> entries = new ArrayList<>();
        for (JsonNode c : shipped.path("connectors")) {
            String product = c.path("product").asText();
            if (products.contains(product)) {
                List<String> specs = new ArrayList<>();
                if (specOverrides.containsKey(product)) {
                    specs.add(specOverrides.get(product).toString());
                } else {
                    c.path("specs").forEach(s -> specs.add(s.asText().contains("://") ? s.asText()
                            : PLUGIN_REPO.resolve(s.asText()).normalize().toString()));
                }
                ((ObjectNode) c).set("specs", JSON.valueToTree(specs));
                entries.add(c);
            }
        }
        assertThat(entries).as("the shipped index has an entry for each of " + products).hasSize(products.size());
        Files.writeString(plugins.resolve("catalog-index.json"), JSON.writeValueAsString(Map.of("connectors", entries)));
        TestIssuer issuer = new TestIssuer();
        Map<String, String> env = TestKernel.settings(issuer, plugins);
        env.putAll(settings);
        return of(work, issuer, TestKernel.start(work.resolve("data"), env));
    }

    /** {@code svc connector ingest --catalog <name>}: must succeed with every curated group found in the spec. */
    String ingest(String catalogName) {
        var r = cli.run("connector", "ingest", "--catalog", catalogName);
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).contains("ingested ");
        assertThat(r.out()).as("every curated group exists in the spec").doesNotContain("curates group");
        return r.out();
    }

    /** Enables the connector and its reads (writes stay default-deny). */
    void enableReads(String connectorId) {
        kernel.enableConnector(admin, connectorId);
    }

    /** Enables one operation (e.g. a write), as a tenant_admin. */
    void enableOperation(String connectorId, String opId) {
        calls(connectorId).enable(admin, opId);
    }

    /**
     * Registers a target at {@code vendor} (http unless it serves TLS) with {@code fields} merged into
     * the body (e.g. {@code tls_ca_pin}, {@code extras}), and stages its secret — whose values
     * {@link #call} then checks never come back.
     */
    void target(String name, String product, ReplayVendor vendor, Map<String, String> secret,
            Map<String, Object> fields) {
        Map<String, Object> body = new HashMap<>(Map.of("name", name, "product", product, "host", "127.0.0.1",
                "port", vendor.port()));
        if (!vendor.tls()) {
            body.put("extras", Map.of("scheme", "http"));
        }
        body.putAll(fields);
        kernel.registerTarget(admin, body);
        kernel.stageSecret(admin, name, secret);
        secret.values().stream().filter(v -> v.length() >= 8).forEach(secrets::add);
    }

    /** Calls an operation as {@code token} with work ref CHG-9; the answer must be 200, secret-free and in contract. */
    JsonNode call(String token, String connectorId, String opId, String target, Map<String, Object> params) {
        JsonNode answer = calls(connectorId).call(token, opId, target, params, Map.of("work_ref", "CHG-9"));
        assertThat(answer.toString()).doesNotContain("contract_violation").doesNotContain("replay_failure");
        return answer;
    }

    /** The kernel's operation calls of {@code connectorId}, checking no staged secret comes back. */
    private OperationCalls calls(String connectorId) {
        return new OperationCalls(kernel, connectorId, secrets);
    }

    /** The error code of a failed call's envelope. */
    static String errorCode(JsonNode result) {
        return result.path("extras").path("error_code").asText();
    }

    /** Approves a parked call as the second tenant_admin; returns the approval answer (with the released result). */
    JsonNode approve(JsonNode parked) {
        return calls("").approval(admin2, parked); // an approval names its request, not the connector
    }

    /** The tenant's audit rows for a target, as text (for "no secret in audit" checks). */
    String auditOf(String target) {
        var r = kernel.get("/api/v1/audit?target=" + target + "&limit=100", admin);
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        secrets.forEach(s -> assertThat(r.body()).doesNotContain(s));
        return r.body();
    }

    @Override
    public void close() {
        kernel.close();
        issuer.close();
        TempDirs.delete(work);
    }
}
