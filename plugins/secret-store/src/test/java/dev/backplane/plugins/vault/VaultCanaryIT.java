package dev.backplane.plugins.vault;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.testing.BeforeKernel;
import dev.backplane.kernel.testing.CliRunner;
import dev.backplane.kernel.testing.KernelSetup;
import dev.backplane.kernel.testing.LogCapture;
import dev.backplane.kernel.testing.PerTestTenant;
import dev.backplane.kernel.testing.TempDirs;
import dev.backplane.kernel.testing.TestKernel;
import dev.backplane.kernel.testing.VaultDouble;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The secret-canary sweep of the secret store: one random value is a KV v2 and a KV v1 secret's value in
 * Vault, and the value of every KV write, patch and rollback the test sends (approved, rejected, failing
 * a check-and-set, previewed, from the CLI); the target's Vault token is a second canary. After every
 * read, write, preview, approval, rejection, probe and CLI verb has run, neither value may appear in any
 * text, json or bytea column of any table of the kernel's database, any log record, any HTTP answer the
 * test received, or the CLI's output. (The embedded kv store under the data dir holds the staged token:
 * that is where secrets live, and it is files, not the database.)
 */
class VaultCanaryIT extends PerTestTenant {

    private static final String CANARY = "vaultcanary" + UUID.randomUUID().toString().replace("-", "");
    /** The body of the private key the double's PKI mount issues: staged, never anywhere else. */
    private static final String KEY_CANARY = "pkikeycanary" + UUID.randomUUID().toString().replace("-", "");
    private static final String CONNECTOR = VaultPipelineIT.CONNECTOR;
    private static final List<String> SEEN = new CopyOnWriteArrayList<>();
    private static LogCapture logs;
    private static VaultDouble vault;

    @BeforeKernel
    static void start(KernelSetup setup) throws Exception {
        logs = LogCapture.onRootLogger(setup);
        setup.pluginJar("vault.plugin.jar", "vault-1.x.jar");
        vault = setup.closeAfter(new VaultDouble("secret"));
        vault.put("canary/app", Map.of("password", CANARY, "user", "app"));
        vault.putV1("canary/legacy", Map.of("password", CANARY));
        vault.issuedPrivateKey("-----BEGIN EC PRIVATE KEY-----\n" + KEY_CANARY + "\n-----END EC PRIVATE KEY-----");
    }

    private TestKernel.Response send(String method, String path, String token, Object body) throws Exception {
        TestKernel.Response r = kernel.send(method, path, token, body == null ? null
                : VaultPipelineIT.JSON.writeValueAsString(body), Map.of());
        SEEN.add(method + " " + path + " -> " + r.status() + " " + r.headers() + " " + r.body());
        return r;
    }

    private JsonNode call(String token, String op, Map<String, Object> params, Map<String, Object> more) throws Exception {
        Map<String, Object> body = new HashMap<>(Map.of("connector_id", CONNECTOR, "op_id", op, "target", "vc",
                "params", params));
        body.putAll(more);
        var r = send("POST", "/api/v1/operations/call", token, body);
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        return r.json();
    }

    private JsonNode call(String token, String op, Map<String, Object> params) throws Exception {
        return call(token, op, params, Map.of());
    }

    private String approvalId(JsonNode parked) {
        assertThat(parked.path("status").asText()).as(parked.toString()).isEqualTo("awaiting_approval");
        return parked.path("extras").path("approval_request_id").asText();
    }

    private JsonNode decide(JsonNode parked, String verdict) throws Exception {
        var r = send("POST", "/api/v1/approvals/" + approvalId(parked) + "/" + verdict, admin2, Map.of("reason", "x"));
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        return r.json();
    }

    @Test
    void theCanaryAndTheTokenAppearNowhere() throws Exception {
        String control = "control" + UUID.randomUUID().toString().replace("-", "");
        assertThat(send("POST", "/api/v1/targets", admin, Map.of("name", "vc", "product", "vault", "host", "127.0.0.1",
                "port", vault.port(), "extras", Map.of("scheme", "http", "note", control))).status()).isEqualTo(201);
        assertThat(sweepDatabase(control)).as("the sweep finds a value that is stored (positive control)").isNotEmpty();
        assertThat(send("PUT", "/api/v1/targets/vc/secret", admin, Map.of("fields",
                Map.of("token", VaultDouble.ROOT_TOKEN))).status()).isEqualTo(200);
        assertThat(send("POST", "/api/v1/connectors/" + CONNECTOR + "/enable-reads", admin, null).status()).isEqualTo(200);
        assertThat(send("POST", "/api/v1/connectors/" + CONNECTOR + "/enable", admin, null).status()).isEqualTo(200);
        for (String op : VaultPipelineIT.NOT_READ_CLASS) {
            assertThat(send("PATCH", "/api/v1/connectors/" + CONNECTOR + "/operations/" + op, admin,
                    Map.of("is_enabled", true)).status()).isEqualTo(200);
        }

        // reads of secrets holding the canary
        assertThat(call(operator, "vault.kv.read", Map.of("path", "canary/app")).path("result").path("keys").toString())
                .isEqualTo("[\"password\",\"user\"]");
        call(operator, "vault.kv.read", Map.of("path", "canary/legacy", "kv_version", 1, "mount", VaultDouble.KV1_MOUNT));
        call(operator, "vault.kv.metadata", Map.of("path", "canary/app"));
        call(operator, "vault.kv.versions", Map.of("path", "canary/app"));
        call(operator, "vault.kv.list", Map.of("path", "canary"));
        call(operator, "vault.token.lookup-self", Map.of());
        send("POST", "/api/v1/targets/vc/probe", operator, null);

        // writes carrying the canary: previewed, approved, rejected, failing
        Map<String, Object> write = Map.of("path", "canary/new", "data", Map.of("password", CANARY));
        var preview = send("POST", "/api/v1/operations/preview", operator, Map.of("connector_id", CONNECTOR,
                "op_id", "vault.kv.write", "target", "vc", "params", write));
        assertThat(preview.status()).as(preview.body()).isEqualTo(200);
        assertThat(preview.json().path("result").path("body").path("data").path("password").asText())
                .isEqualTo("<redacted>");
        JsonNode approved = decide(call(admin, "vault.kv.write", write), "approve");
        assertThat(approved.path("result").path("status").asText()).as(approved.toString()).isEqualTo("ok");
        assertThat(vault.current("secret", "canary/new").orElseThrow().path("password").asText()).isEqualTo(CANARY);
        decide(call(admin, "vault.kv.write", Map.of("path", "canary/other", "data", Map.of("password", CANARY))),
                "reject");
        // a field name that does not look secret: only the op's declared secret param (data) hides it, from every
        // role that can see the approval, a read_only member included
        JsonNode plainNamed = call(admin, "vault.kv.write", Map.of("path", "canary/plain", "data", Map.of("value", CANARY)));
        String readOnly = issuer.token("ro-" + tenant, tenant, "read_only");
        var seen = send("GET", "/api/v1/approvals/" + approvalId(plainNamed), readOnly, null);
        assertThat(seen.status()).as(seen.body()).isEqualTo(200);
        assertThat(seen.json().path("resolved").path("params").path("data").asText()).isEqualTo("***REDACTED***");
        assertThat(seen.json().path("resolved").path("params").path("path").asText()).isEqualTo("canary/plain");
        assertThat(send("GET", "/api/v1/approvals?status=pending", readOnly, null).status()).isEqualTo(200);
        decide(plainNamed, "reject");
        JsonNode stale = decide(call(admin, "vault.kv.write", Map.of("path", "canary/new", "cas", 7,
                "data", Map.of("password", CANARY))), "approve");
        assertThat(stale.path("result").path("status").asText()).as(stale.toString()).isEqualTo("error");
        decide(call(admin, "vault.kv.patch", Map.of("path", "canary/app", "data", Map.of("token", CANARY))), "approve");
        JsonNode rolled = decide(call(admin, "vault.kv.rollback", Map.of("path", "canary/app", "version", 1)), "approve");
        assertThat(rolled.path("result").path("status").asText()).as(rolled.toString()).isEqualTo("ok");
        decide(call(admin, "vault.kv.write", Map.of("path", "canary/legacy", "kv_version", 1,
                "mount", VaultDouble.KV1_MOUNT, "data", Map.of("password", CANARY))), "approve");

        // a certificate issued: previewed, approved; its private key is staged, only the ref returned
        Map<String, Object> issue = Map.of("role", "web", "common_name", "canary.example.com");
        var issuePreview = send("POST", "/api/v1/operations/preview", operator, Map.of("connector_id", CONNECTOR,
                "op_id", "vault.pki.issue", "target", "vc", "params", issue));
        assertThat(issuePreview.status()).as(issuePreview.body()).isEqualTo(200);
        JsonNode issued = decide(call(operator, "vault.pki.issue", issue, Map.of("preview_hash",
                issuePreview.json().path("result").path("preview_hash").asText())), "approve");
        assertThat(issued.path("result").path("status").asText()).as(issued.toString()).isEqualTo("ok");
        String keyRef = issued.path("result").path("result").path("private_key_ref").asText();
        assertThat(new dev.backplane.kernel.credentials.FileKvStore(kernel.dataDir().resolve("kv")).read(keyRef)
                .get("private_key")).as("positive control: the key is where the ref says").contains(KEY_CANARY);

        // the CLI, reading and writing from a file
        Path home = TempDirs.create("svc-canary-cli");
        CliRunner cli = kernel.cli(home, admin);
        List<CliRunner.Result> runs = new ArrayList<>();
        runs.add(cli.run("vault", "kv", "read", "canary/app", "--target", "vc"));
        runs.add(cli.run("vault", "kv", "versions", "canary/app", "--target", "vc", "--json"));
        Path data = home.resolve("data.json");
        Files.writeString(data, "{\"password\": \"" + CANARY + "\"}");
        CliRunner.Result parked = cli.run("vault", "kv", "write", "canary/cli", "--data", "@" + data, "--target", "vc",
                "--json");
        runs.add(parked);
        assertThat(parked.exitCode()).as(parked.toString()).isEqualTo(4);
        decide(VaultPipelineIT.JSON.readTree(parked.out()), "reject");
        runs.add(cli.run("audit", "query", "--target", "vc", "--json"));
        runs.forEach(r -> SEEN.add("cli -> " + r.exitCode() + " " + r.out() + " " + r.err()));
        send("GET", "/api/v1/audit?target=vc&limit=200", admin, null);
        send("GET", "/api/v1/approvals?status=all", admin, null);

        List<String> hits = new ArrayList<>();
        for (String needle : List.of(CANARY, VaultDouble.ROOT_TOKEN, KEY_CANARY)) {
            SEEN.stream().filter(s -> s.contains(needle)).forEach(s -> hits.add("answer: " + excerpt(s, needle)));
            logs.lines().stream().filter(s -> s.contains(needle)).forEach(s -> hits.add("log: " + excerpt(s, needle)));
            hits.addAll(sweepDatabase(needle));
        }
        assertThat(SEEN).hasSizeGreaterThan(20);
        assertThat(logs.lines()).as("log records were captured").isNotEmpty();
        assertThat(hits).isEmpty();
    }

    private static String excerpt(String text, String needle) {
        int at = text.indexOf(needle);
        return text.substring(Math.max(0, at - 160), Math.min(text.length(), at + needle.length() + 40))
                .replace(CANARY, "<CANARY>").replace(VaultDouble.ROOT_TOKEN, "<TOKEN>")
                .replace(KEY_CANARY, "<KEY>");
    }

    private static List<String> sweepDatabase(String needle) throws Exception {
        List<String> hits = new ArrayList<>();
        try (Connection c = kernel.kernel().database().dataSource().getConnection()) {
            List<String[]> columns = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("""
                    SELECT col.table_schema, col.table_name, col.column_name, col.data_type
                      FROM information_schema.columns col
                      JOIN information_schema.tables t
                        ON t.table_schema = col.table_schema AND t.table_name = col.table_name
                     WHERE t.table_type = 'BASE TABLE'
                       AND t.table_schema NOT IN ('pg_catalog', 'information_schema')
                       AND col.data_type IN ('text', 'character varying', 'character', 'json', 'jsonb', 'ARRAY', 'bytea')""");
                 ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    columns.add(new String[] {rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4)});
                }
            }
            assertThat(columns).as("the sweep sees the kernel's tables").hasSizeGreaterThan(50);
            for (String[] col : columns) {
                String q = "\"" + col[2].replace("\"", "\"\"") + "\"";
                String expr = col[3].equals("bytea") ? "encode(" + q + ", 'escape')" : q + "::text";
                String table = "\"" + col[0] + "\".\"" + col[1] + "\"";
                try (PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM " + table + " WHERE strpos("
                        + expr + ", ?) > 0")) {
                    ps.setString(1, needle);
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        if (rs.getLong(1) > 0) {
                            hits.add("database " + col[1] + "." + col[2] + " (" + rs.getLong(1) + " rows)");
                        }
                    }
                }
            }
        }
        return hits;
    }
}
