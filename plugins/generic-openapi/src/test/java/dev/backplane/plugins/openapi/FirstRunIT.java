package dev.backplane.plugins.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.backplane.kernel.testing.CliRunner;
import dev.backplane.kernel.testing.KeycloakServer;
import dev.backplane.kernel.testing.TempDirs;
import dev.backplane.kernel.testing.TestKernel;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The first run, as {@code ./run} does it, with its pieces: a real Keycloak bootstrapped with the same
 * {@code bootstrap-clients} flags, a kernel trusting it whose SSRF allowlist is opened for exactly the
 * loopback address, this plugin's jar, and {@code bin/demo-target} run as a process. Then alice logs in
 * through the device flow and makes the example call {@code ./run} prints — against the real Keycloak
 * admin API, through the backplane. Also: {@code svc login} with the MCP client.
 */
class FirstRunIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern DEVICE_URL = Pattern.compile("(http://\\S+/device\\?user_code=\\S+)");
    private static final String MCP_RESOURCE = "https://first-run.test/mcp";
    private static final UUID TENANT = UUID.randomUUID();
    private static final String PASSWORD = "pw-" + UUID.randomUUID();
    private static final String READER_SECRET = "reader-" + UUID.randomUUID();
    private static final String SETUP_SECRET = "setup-" + UUID.randomUUID();
    private static Path work;
    private static Path repo;
    private static KeycloakServer keycloak;
    private static TestKernel kernel;

    @BeforeAll
    static void start() throws Exception {
        repo = Path.of("").toAbsolutePath().getParent().getParent();
        assertThat(repo.resolve("bin/demo-target")).as("run from plugins/generic-openapi").isRegularFile();
        work = TempDirs.create("svc-first-run-it");
        Path plugins = Files.createDirectories(work.resolve("plugins"));
        Files.copy(Path.of(System.getProperty("generic-openapi.plugin.jar")), plugins.resolve("generic-openapi.jar"));
        keycloak = KeycloakServer.start(work);
        kernel = TestKernel.start(work.resolve("data"), Map.of(
                "SVC_IDENTITY_ISSUER", keycloak.url() + "/realms/svc",
                "SVC_IDENTITY_MCP_AUDIENCE", MCP_RESOURCE,
                "SVC_PLUGIN_DIR", plugins.toString(),
                "SVC_TARGET_SSRF_ALLOWLIST", "127.0.0.1/32"));
        CliRunner deployer = new CliRunner(work.resolve("deployer")).env("KEYCLOAK_ADMIN_USER", KeycloakServer.ADMIN)
                .env("KEYCLOAK_ADMIN_PASSWORD", keycloak.adminPassword()).env("SVC_BOOTSTRAP_USER_PASSWORD", PASSWORD)
                .env("SVC_BOOTSTRAP_READER_SECRET", READER_SECRET).env("SVC_BOOTSTRAP_SETUP_SECRET", SETUP_SECRET);
        for (String[] user : List.of(new String[] {"alice", "tenant_admin"}, new String[] {"carol", "operator"})) {
            List<String> args = new ArrayList<>(List.of("admin", "idp", "bootstrap-clients", "--keycloak-base-url",
                    keycloak.url(), "--realm", "svc", "--mcp-resource-uri", MCP_RESOURCE, "--admin-user-username",
                    user[0], "--tenant-id", TENANT.toString(), "--tenant-role", user[1]));
            if (user[0].equals("alice")) {
                args.addAll(List.of("--reader-client-id", "svc-keycloak-reader", "--setup-client-id", "svc-run-setup"));
            }
            CliRunner.Result r = deployer.run(args.toArray(String[]::new));
            assertThat(r.exitCode()).as(r.toString()).isZero();
            assertThat(r.out()).doesNotContain(READER_SECRET).doesNotContain(SETUP_SECRET);
        }
        // poll the device endpoint every second instead of five, to keep the test quick
        assertThat(keycloak.admin("PUT", "/svc", Map.of("oauth2DevicePollingInterval", 1)).statusCode()).isEqualTo(204);
    }

    @AfterAll
    static void stop() {
        if (kernel != null) {
            kernel.close();
        }
        if (keycloak != null) {
            keycloak.close();
        }
    }

    /** Runs bin/demo-target as ./run does; returns its output. */
    private static String demoTarget() throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder("bash", repo.resolve("bin/demo-target").toString(), kernel.url(),
                keycloak.url(), TENANT.toString()).redirectErrorStream(true);
        pb.environment().put("SVC_DEMO_READER_SECRET", READER_SECRET);
        pb.environment().put("SVC_DEMO_SETUP_SECRET", SETUP_SECRET);
        pb.environment().put("SVC_DEMO_CONFIG_DIR", work.resolve("setup-cli").toString());
        Process p = pb.start();
        assertThat(p.waitFor(180, TimeUnit.SECONDS)).as("bin/demo-target finished").isTrue();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out).doesNotContain(READER_SECRET).doesNotContain(SETUP_SECRET);
        return out;
    }

    /** The example call ./run prints, as the words after {@code bin/svc}. */
    private static String[] printedExampleCall() throws IOException {
        Matcher m = Pattern.compile("\\n\\s+bin/svc (keycloak [^\\n]+)\\n").matcher(Files.readString(repo.resolve("run")));
        assertThat(m.find()).as("./run prints an example call").isTrue();
        return m.group(1).trim().split("\\s+");
    }

    private static CliRunner.Result login(CliRunner cli, String user, String... extra) throws Exception {
        List<String> args = new ArrayList<>(List.of("login", kernel.url(), "--insecure-allow-http"));
        args.addAll(Arrays.asList(extra));
        CliRunner.Running running = cli.start(args.toArray(String[]::new));
        String url = running.awaitErr(DEVICE_URL, Duration.ofSeconds(30));
        keycloak.approveDevice(url, user, PASSWORD);
        return running.result().get();
    }

    @Test
    void theDemoTenantHasARealTargetAndThePrintedCallAnswers() throws Exception {
        String first = demoTarget();
        assertThat(first).contains("ingested keycloak-26.x").contains("registered target local-keycloak")
                .contains("staged the credential of local-keycloak");
        String again = demoTarget();
        assertThat(again).as("idempotent, as ./run is on every start").contains("already ingested")
                .contains("already registered");

        CliRunner alice = new CliRunner(work.resolve("alice"));
        CliRunner.Result loggedIn = login(alice, "alice");
        assertThat(loggedIn.exitCode()).as(loggedIn.toString()).isZero();

        // the call ./run prints, word for word
        CliRunner.Result call = alice.run(printedExampleCall());
        assertThat(call.exitCode()).as(call.toString()).isZero();
        assertThat(call.out()).contains("alice").contains("carol");
        assertThat(call.out() + call.err()).doesNotContain(READER_SECRET);

        // the target as registered: plain HTTP on the loopback address the allowlist names
        JsonNode target = JSON.readTree(alice.run("targets", "describe", "local-keycloak", "--json").out());
        assertThat(target.path("host").asText()).isEqualTo("127.0.0.1");
        assertThat(target.path("extras").path("scheme").asText()).isEqualTo("http");

        // every operation of the shipped document is a read, and all are enabled
        CliRunner.Result groups = alice.run("operation", "groups", "keycloak-26.x", "--json");
        assertThat(groups.exitCode()).as(groups.toString()).isZero();
        for (JsonNode g : JSON.readTree(groups.out()).path("groups")) {
            assertThat(g.path("enabled_op_count").asInt()).as(g.toString()).isEqualTo(g.path("operation_count").asInt());
        }
        CliRunner.Result realms = alice.run("operation", "call", "keycloak-26.x", "keycloak.realms.list_realms",
                "--target", "local-keycloak", "--params", "{\"briefRepresentation\": true}", "--json");
        assertThat(realms.exitCode()).as(realms.toString()).isZero();
        assertThat(realms.out()).contains("\"realm\" : \"svc\"");

        // an operator reads too; the audit shows who, by username
        CliRunner carol = new CliRunner(work.resolve("carol"));
        assertThat(login(carol, "carol").exitCode()).isZero();
        CliRunner.Result groupsOfRealm = carol.run("keycloak", "groups", "get_groups_by_realm", "--realm", "svc",
                "--target", "local-keycloak");
        assertThat(groupsOfRealm.exitCode()).as(groupsOfRealm.toString()).isZero();
        CliRunner.Result who = alice.run("audit", "who-touched", "local-keycloak");
        assertThat(who.out()).contains("alice (").contains("carol (");

        // topology discovery of this real Keycloak: the ingested connector's reads through the pipeline
        assertThat(keycloak.admin("POST", "/svc/groups", Map.of("name", "oncall")).statusCode()).isEqualTo(201);
        String groupId = keycloak.adminJson("/svc/groups?search=oncall").get(0).path("id").asText();
        String aliceId = keycloak.adminJson("/svc/users?username=alice&exact=true").get(0).path("id").asText();
        assertThat(keycloak.admin("PUT", "/svc/users/" + aliceId + "/groups/" + groupId, null).statusCode()).isEqualTo(204);
        CliRunner.Result refreshed = alice.run("topology", "refresh", "local-keycloak");
        assertThat(refreshed.exitCode()).as(refreshed.toString()).isZero();
        assertThat(autoEdges(alice)).contains("local-keycloak/svc belongs-to local-keycloak",
                "local-keycloak/svc/svc-cli authenticates-via local-keycloak/svc",
                "local-keycloak/svc/oncall belongs-to local-keycloak/svc",
                "local-keycloak/svc/alice belongs-to local-keycloak/svc/oncall");
        assertThat(alice.run("topology", "path", "local-keycloak/svc/alice", "local-keycloak").out()).contains("3 hops");
        // alice leaves the group: the discovered edge goes stale, it is not deleted
        assertThat(keycloak.admin("DELETE", "/svc/users/" + aliceId + "/groups/" + groupId, null).statusCode())
                .isEqualTo(204);
        assertThat(alice.run("topology", "refresh", "local-keycloak").out()).contains("stale 1");
        assertThat(autoEdges(alice)).contains("local-keycloak/svc/alice belongs-to local-keycloak/svc/oncall (stale)");
        assertThat(alice.run("topology", "dependencies", "local-keycloak/svc/alice").out()).contains("none");
    }

    /**
     * Issue 38's scenario as a new user meets it: beside the demo's keycloak-26.x the tenant ingests Keycloak 23's
     * admin API (the vendor spec from {@code ../shared/specs}, another auth scheme) as keycloak-23.x and registers
     * a second target asserting version 23.x. The family verb, and {@code svc operation call} naming 26.x, reach
     * each target through the connector that serves its version; the audit row and {@code svc targets describe}
     * say which.
     */
    @Test
    void twoKeycloakVersionsSideBySideEachTargetIsServedByItsOwn() throws Exception {
        Path spec = KeycloakIngestIT.keycloakSpec();
        assertThat(spec).as("../shared/specs/keycloak-23.0.7-openapi.json beside the repository").isNotNull();
        demoTarget();
        CliRunner alice = new CliRunner(work.resolve("alice-two-versions"));
        assertThat(login(alice, "alice").exitCode()).isZero();
        CliRunner.Result ingest = alice.run("connector", "ingest", "--product", "keycloak", "--version", "23.x",
                "--impl", "keycloak", "--spec", spec.toString(), "--spec-info-versions-compatible", "1.x",
                "--auth-scheme", "session_login", "--auth-secret-field", "username", "--auth-secret-field", "password",
                "--auth-setting", "login_path=/realms/master/protocol/openid-connect/token",
                "--auth-setting", "login_format=form", "--auth-setting", "login_params=grant_type=password&client_id=admin-cli",
                "--tenant-id", TENANT.toString());
        assertThat(ingest.exitCode()).as(ingest.toString()).isZero();
        assertThat(alice.run("connector", "enable-reads", "keycloak-23.x", "--confirm").exitCode()).isZero();
        assertThat(alice.run("connector", "enable", "keycloak-23.x", "--confirm").exitCode()).isZero();
        URI kc = URI.create(keycloak.url());
        CliRunner.Result added = alice.run("targets", "add", "kc-23", "--product", "keycloak", "--version", "23.x",
                "--host", kc.getHost(), "--port", String.valueOf(kc.getPort()), "--extras", "scheme=http");
        assertThat(added.exitCode()).as(added.toString()).isZero();
        CliRunner.Result staged = alice.run(Map.of(), "username=" + KeycloakServer.ADMIN + "\npassword="
                + keycloak.adminPassword() + "\n", "targets", "stage-secret", "kc-23");
        assertThat(staged.exitCode()).as(staged.toString()).isZero();

        // the family verb names the newest connector (26.x); the backplane serves kc-23 through 23.x
        CliRunner.Result viaFamily = alice.run("keycloak", "users", "get_users_by_realm", "--realm", "svc",
                "--target", "kc-23");
        assertThat(viaFamily.exitCode()).as(viaFamily.toString()).isZero();
        assertThat(viaFamily.out()).contains("alice").contains("carol");
        assertThat(viaFamily.err()).contains("served by keycloak-23.x");
        CliRunner.Result demo = alice.run("keycloak", "users", "get_users_by_realm", "--realm", "svc",
                "--target", "local-keycloak");
        assertThat(demo.exitCode()).as(demo.toString()).isZero();
        assertThat(demo.err()).doesNotContain("served by");
        CliRunner.Result named = alice.run("operation", "call", "keycloak-26.x", "keycloak.users.get_users_by_realm",
                "--target", "kc-23", "--params", "{\"realm\": \"svc\"}", "--json");
        assertThat(named.exitCode()).as(named.toString()).isZero();
        JsonNode envelope = JSON.readTree(named.out());
        assertThat(envelope.path("extras").path("resolved_connector_id").asText()).isEqualTo("keycloak-23.x");
        assertThat(envelope.path("extras").path("requested_connector_id").asText()).isEqualTo("keycloak-26.x");
        assertThat(named.out()).doesNotContain(keycloak.adminPassword());

        JsonNode rows = JSON.readTree(alice.run("audit", "query", "--target", "kc-23", "--json").out());
        assertThat(rows.path("rows")).isNotEmpty()
                .allSatisfy(r -> assertThat(r.path("connector_id").asText()).isEqualTo("keycloak-23.x"));
        CliRunner.Result described = alice.run("targets", "describe", "kc-23");
        assertThat(described.out()).contains("served by       keycloak-23.x").contains("23.x (asserted)")
                .contains("keycloak-26.x: supports [26.x], not version 23.x");
    }

    private static List<String> autoEdges(CliRunner cli) throws IOException {
        List<String> out = new ArrayList<>();
        JSON.readTree(cli.run("topology", "list-edges", "--source", "auto", "--limit", "1000", "--json").out())
                .path("edges").forEach(e -> out.add(e.path("from").asText() + " " + e.path("kind").asText() + " "
                        + e.path("to").asText() + (e.path("stale").asBoolean() ? " (stale)" : "")));
        return out;
    }

    @Test
    void loginWithTheMcpClientChecksTheTokenOnMcpAndKeepsTheCliLogin() throws Exception {
        CliRunner alice = new CliRunner(work.resolve("alice-mcp"));
        assertThat(login(alice, "alice").exitCode()).isZero();
        Path tokens = work.resolve("alice-mcp/svc/tokens.json");
        String before = Files.readString(tokens);

        CliRunner.Result mcp = login(alice, "alice", "--client-id", "svc-mcp", "--scope", "openid,svc:mcp");
        assertThat(mcp.exitCode()).as(mcp.toString()).isZero();
        assertThat(mcp.out()).contains("as alice with client svc-mcp").contains("for MCP clients")
                .contains("not stored").contains("--print-token");
        assertThat(mcp.err()).doesNotContain("invalid_token");
        assertThat(Files.readString(tokens)).as("the CLI's own login is untouched").isEqualTo(before);
        CliRunner.Result status = alice.run("status");
        assertThat(status.exitCode()).as(status.toString()).isZero();

        CliRunner.Result printed = login(new CliRunner(work.resolve("alice-mcp2")), "alice", "--client-id", "svc-mcp",
                "--scope", "openid,svc:mcp", "--print-token");
        assertThat(printed.exitCode()).as(printed.toString()).isZero();
        assertThat(printed.out().trim()).matches("[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+");
    }
}
