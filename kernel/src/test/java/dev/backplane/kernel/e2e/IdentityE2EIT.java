package dev.backplane.kernel.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.backplane.kernel.testing.CliRunner;
import dev.backplane.kernel.testing.Fixtures;
import dev.backplane.kernel.testing.KeycloakServer;
import dev.backplane.kernel.testing.TempDirs;
import dev.backplane.kernel.testing.TestKernel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Identity end to end against a real Keycloak and a real kernel, driven through the real CLI:
 * bootstrap-clients, device login approved on Keycloak's own pages, refresh, offline tokens, and the
 * kernel's refusals of tokens it must not accept.
 */
class IdentityE2EIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern DEVICE_URL = Pattern.compile("(http://\\S+/device\\?user_code=\\S+)");
    private static final String REALM = "svc";
    private static final UUID TENANT = UUID.randomUUID();
    private static final UUID OTHER_TENANT = UUID.randomUUID();
    private static final String PASSWORD = "pw-" + UUID.randomUUID();

    private static Path work;
    private static KeycloakServer keycloak;
    private static TestKernel kernel;
    /** The MCP resource (audience) the bootstrap gives the MCP client and the kernel requires on /mcp. */
    private static final String MCP_RESOURCE = "https://backplane.e2e/mcp";
    private static CliRunner admin;

    @BeforeAll
    static void start() throws Exception {
        work = TempDirs.create("svc-e2e");
        keycloak = KeycloakServer.start(work);
        admin = new CliRunner(work.resolve("admin-config"))
                .env("KEYCLOAK_ADMIN_USER", KeycloakServer.ADMIN)
                .env("KEYCLOAK_ADMIN_PASSWORD", keycloak.adminPassword())
                .env("SVC_BOOTSTRAP_USER_PASSWORD", PASSWORD);
        kernel = TestKernel.start(work.resolve("kernel"), Map.of(
                "SVC_IDENTITY_ISSUER", keycloak.url() + "/realms/" + REALM,
                "SVC_IDENTITY_MCP_AUDIENCE", MCP_RESOURCE,
                "SVC_IDENTITY_CLOCK_SKEW_SECONDS", "1"));
    }

    @AfterAll
    static void stop() {
        Fixtures.closeAll(kernel, keycloak);
    }

    private static CliRunner.Result bootstrap(String... extra) {
        List<String> args = new java.util.ArrayList<>(List.of("admin", "idp", "bootstrap-clients",
                "--keycloak-base-url", keycloak.url(), "--realm", REALM,
                "--mcp-resource-uri", MCP_RESOURCE));
        args.addAll(List.of(extra));
        return admin.run(args.toArray(String[]::new));
    }

    private static synchronized void ensureBootstrapped() throws Exception {
        if (keycloak.admin("GET", "/" + REALM, null).statusCode() == 200) {
            return;
        }
        CliRunner.Result dry = bootstrap("--dry-run", "--admin-user-username", "alice", "--tenant-id", TENANT.toString());
        assertThat(dry.exitCode()).as(dry.toString()).isZero();
        assertThat(dry.out()).contains("would create realm svc").contains("nothing was written");
        assertThat(keycloak.admin("GET", "/" + REALM, null).statusCode()).as("dry run wrote nothing").isEqualTo(404);

        CliRunner.Result first = bootstrap("--admin-user-username", "alice", "--tenant-id", TENANT.toString(),
                "--admin-group-name", "svc-admins", "--admin-user-email", "alice@example.test");
        assertThat(first.exitCode()).as(first.toString()).isZero();
        assertThat(first.out()).contains("create client svc-cli").contains("create client svc-mcp").contains("create client svc-console")
                .contains("create client scope svc:mcp").contains("add default scope svc:mcp to client svc-mcp")
                .contains("create mapper audience on client svc-cli").contains("create user alice")
                .contains("add user alice to group svc-admins").doesNotContain(PASSWORD);

        CliRunner.Result second = bootstrap("--admin-user-username", "alice", "--tenant-id", TENANT.toString(),
                "--admin-group-name", "svc-admins", "--admin-user-email", "alice@example.test");
        assertThat(second.exitCode()).as(second.toString()).isZero();
        assertThat(second.out()).startsWith("Nothing to change");

        for (String[] user : List.of(new String[] {"bob", "operator", TENANT.toString()},
                new String[] {"carol", "read_only", OTHER_TENANT.toString()},
                new String[] {"dave", "operator", TENANT.toString()})) {
            CliRunner.Result r = bootstrap("--admin-user-username", user[0], "--tenant-role", user[1],
                    "--tenant-id", user[2]);
            assertThat(r.exitCode()).as(r.toString()).isZero();
            assertThat(r.out()).contains("create user " + user[0]);
        }
        // dave is a platform_admin (set directly in Keycloak; bootstrap provisions tenant users only)
        String daveId = keycloak.adminJson("/" + REALM + "/users?exact=true&username=dave").get(0).path("id").asText();
        ObjectNode dave = (ObjectNode) keycloak.adminJson("/" + REALM + "/users/" + daveId);
        dave.withObjectProperty("attributes").putArray("platform_admin").add("true");
        assertThat(keycloak.admin("PUT", "/" + REALM + "/users/" + daveId, dave).statusCode()).isEqualTo(204);
        // poll the device endpoint every second instead of five, to keep the suite quick
        assertThat(keycloak.admin("PUT", "/" + REALM, Map.of("oauth2DevicePollingInterval", 1)).statusCode())
                .isEqualTo(204);
    }

    private static String ciSecret;

    /** The confidential client svc-ci (its service account a tenant_admin of TENANT), made once; its secret. */
    private static synchronized String ciClient() throws Exception {
        ensureBootstrapped();
        if (ciSecret == null) {
            String secret = "ci-" + UUID.randomUUID();
            CliRunner.Result setup = admin.run(Map.of("SVC_BOOTSTRAP_SETUP_SECRET", secret), "", "admin", "idp",
                    "bootstrap-clients", "--keycloak-base-url", keycloak.url(), "--realm", REALM, "--mcp-resource-uri",
                    MCP_RESOURCE, "--skip-user-provisioning", "--setup-client-id", "svc-ci", "--tenant-id",
                    TENANT.toString());
            assertThat(setup.exitCode()).as(setup.toString()).isZero();
            ciSecret = secret;
        }
        return ciSecret;
    }

    /** Logs {@code user} in through the CLI's device flow, approving it on Keycloak's pages. */
    private static CliRunner.Result login(CliRunner cli, String user, String... extra) throws Exception {
        ensureBootstrapped();
        List<String> args = new java.util.ArrayList<>(List.of("login", kernel.url(), "--insecure-allow-http"));
        args.addAll(List.of(extra));
        CliRunner.Running running = cli.start(args.toArray(String[]::new));
        String url;
        try {
            url = running.awaitErr(DEVICE_URL, Duration.ofSeconds(30));
        } catch (AssertionError endedEarly) {
            if (running.result().isDone()) {
                return running.result().get(); // refused before a device code was issued
            }
            throw endedEarly;
        }
        keycloak.approveDevice(url, user, PASSWORD);
        return running.result().get();
    }

    private CliRunner newCli(String name) {
        return new CliRunner(work.resolve("cli-" + name + "-" + UUID.randomUUID()));
    }

    private static JsonNode storedTokens(Path configHome) throws Exception {
        return JSON.readTree(configHome.resolve("svc/tokens.json").toFile());
    }

    @Test
    void deviceLoginThenStatusShowsTenantAndRole() throws Exception {
        Path home = work.resolve("alice-" + UUID.randomUUID());
        CliRunner alice = new CliRunner(home);
        CliRunner.Result login = login(alice, "alice");
        assertThat(login.exitCode()).as(login.toString()).isZero();
        assertThat(login.out()).contains("Logged in to " + kernel.url() + " as alice")
                .contains("tenant " + TENANT).contains("role tenant_admin");

        CliRunner.Result status = alice.run("status");
        assertThat(status.exitCode()).as(status.toString()).isZero();
        assertThat(status.out()).contains("tenant     " + TENANT).contains("role       tenant_admin")
                .contains("user       alice").contains("(reachable)");

        Path tokenFile = home.resolve("svc/tokens.json");
        assertThat(Files.getPosixFilePermissions(tokenFile)).isEqualTo(PosixFilePermissions.fromString("rw-------"));
        String stored = Files.readString(tokenFile);
        assertThat(status.out() + status.err() + login.out() + login.err())
                .as("no token is ever printed").doesNotContain(storedTokens(home).path(kernel.url()).path("access_token")
                        .asText());

        // refresh: mark the access token expired; the next command refreshes it and goes on
        ObjectNode all = (ObjectNode) JSON.readTree(stored);
        String before = all.path(kernel.url()).path("access_token").asText();
        ((ObjectNode) all.get(kernel.url())).put("expires_at", "2000-01-01T00:00:00Z");
        Files.writeString(tokenFile, all.toString());
        CliRunner.Result afterRefresh = alice.run("status", "--json");
        assertThat(afterRefresh.exitCode()).as(afterRefresh.toString()).isZero();
        assertThat(JSON.readTree(afterRefresh.out()).path("whoami").path("tenant_role").asText()).isEqualTo("tenant_admin");
        assertThat(storedTokens(home).path(kernel.url()).path("access_token").asText())
                .as("the access token was refreshed").isNotEqualTo(before);

        // a tenant_admin may change tenant policy through the CLI
        CliRunner.Result set = alice.run("tenants", "flight-recorder-policy", "set", "--retention-days", "14");
        assertThat(set.exitCode()).as(set.toString()).isZero();
        assertThat(set.out()).contains("retention_days  14");
    }

    /**
     * Issue 46: a machine (a CI job) logs in with a confidential client's service account — the setup client
     * bootstrap-clients creates — its secret from SVC_CLIENT_SECRET or standard input, never a flag; the CLI mints
     * the next token itself when this one expires; a wrong secret is refused without the secret in any output.
     */
    @Test
    void aMachineLogsInWithClientCredentialsAndMintsItsNextTokenItself() throws Exception {
        String secret = ciClient();

        Path home = work.resolve("ci-" + UUID.randomUUID());
        CliRunner ci = new CliRunner(home);
        CliRunner.Result login = ci.run(Map.of("SVC_CLIENT_SECRET", secret, "SVC_CLIENT_ID", "svc-ci"), "", "login",
                kernel.url(), "--insecure-allow-http", "--client-credentials");
        assertThat(login.exitCode()).as(login.toString()).isZero();
        assertThat(login.out()).contains("Logged in to " + kernel.url()).contains("tenant " + TENANT)
                .contains("role tenant_admin").contains("with client credentials");
        CliRunner.Result status = ci.run("status", "--json");
        assertThat(status.exitCode()).as(status.toString()).isZero();
        assertThat(JSON.readTree(status.out()).path("whoami").path("tenant_role").asText()).isEqualTo("tenant_admin");

        // the token expires: the next command mints one with the kept secret (no refresh token, no person)
        Path tokenFile = home.resolve("svc/tokens.json");
        assertThat(Files.getPosixFilePermissions(tokenFile)).isEqualTo(PosixFilePermissions.fromString("rw-------"));
        ObjectNode all = (ObjectNode) JSON.readTree(Files.readString(tokenFile));
        String before = all.path(kernel.url()).path("access_token").asText();
        ((ObjectNode) all.get(kernel.url())).put("expires_at", "2000-01-01T00:00:00Z");
        Files.writeString(tokenFile, all.toString());
        CliRunner.Result minted = ci.run("status", "--json");
        assertThat(minted.exitCode()).as(minted.toString()).isZero();
        assertThat(storedTokens(home).path(kernel.url()).path("access_token").asText()).isNotEqualTo(before);

        // the secret from standard input works too; from a flag it cannot be given
        CliRunner.Result piped = new CliRunner(work.resolve("ci-stdin-" + UUID.randomUUID())).run(Map.of(), secret + "\n",
                "login", kernel.url(), "--insecure-allow-http", "--client-credentials", "--client-id", "svc-ci");
        assertThat(piped.exitCode()).as(piped.toString()).isZero();
        CliRunner.Result flag = ci.run("login", kernel.url(), "--insecure-allow-http", "--client-credentials",
                "--client-id", "svc-ci", "--client-secret", secret);
        assertThat(flag.exitCode()).isEqualTo(2);
        CliRunner.Result none = new CliRunner(work.resolve("ci-none-" + UUID.randomUUID())).run(Map.of(), "", "login",
                kernel.url(), "--insecure-allow-http", "--client-credentials", "--client-id", "svc-ci");
        assertThat(none.exitCode()).isEqualTo(2);
        assertThat(none.err()).contains("SVC_CLIENT_SECRET or on standard input (never as a flag)");
        CliRunner.Result wrong = new CliRunner(work.resolve("ci-wrong-" + UUID.randomUUID())).run(
                Map.of("SVC_CLIENT_SECRET", "not-" + secret), "", "login", kernel.url(), "--insecure-allow-http",
                "--client-credentials", "--client-id", "svc-ci");
        assertThat(wrong.exitCode()).as(wrong.toString()).isEqualTo(6);
        assertThat(wrong.err()).contains("the identity provider refused client 'svc-ci'").doesNotContain(secret);
        assertThat(login.out() + login.err() + status.out() + minted.out() + minted.err()).doesNotContain(secret)
                .doesNotContain(before);
    }

    /**
     * Issue 46, contexts: one CLI holds two principals on one backplane — a CI machine (client credentials) and bob
     * (a device login) — in two contexts, used alternately (--context, SVC_CONTEXT, the current one) without logging
     * in again; a context's tenant default applies like --tenant; rename keeps the login, delete forgets it.
     */
    @Test
    void twoContextsOnOneBackplaneAreTwoPrincipalsUsedAlternately() throws Exception {
        String secret = ciClient();
        Path home = work.resolve("contexts-" + UUID.randomUUID());
        CliRunner cli = new CliRunner(home);
        CliRunner.Result machine = cli.run(Map.of("SVC_CLIENT_SECRET", secret, "SVC_CLIENT_ID", "svc-ci"), "", "login",
                kernel.url(), "--insecure-allow-http", "--client-credentials", "--context", "ci");
        assertThat(machine.exitCode()).as(machine.toString()).isZero();
        assertThat(machine.out()).contains("context ci");
        CliRunner.Result person = login(cli, "bob", "--context", "bob");
        assertThat(person.exitCode()).as(person.toString()).isZero();
        assertThat(person.out()).contains("as bob").contains("context bob");

        for (int round = 0; round < 2; round++) {
            assertThat(user(cli.run("--context", "ci", "status", "--json"))).startsWith("service-account-svc-ci");
            assertThat(user(cli.run("status", "--json", "--context", "bob"))).isEqualTo("bob");
            assertThat(user(cli.run(Map.of("SVC_CONTEXT", "ci"), "", "status", "--json")))
                    .startsWith("service-account-svc-ci");
        }
        assertThat(user(cli.run("status", "--json"))).as("the last login's context is current").isEqualTo("bob");
        assertThat(cli.run("context", "use", "ci").exitCode()).isZero();
        CliRunner.Result status = cli.run("status");
        assertThat(status.out()).contains("context    ci").contains("user       service-account-svc-ci");

        CliRunner.Result list = cli.run("context", "list", "-o", "json");
        assertThat(list.exitCode()).as(list.toString()).isZero();
        JsonNode contexts = JSON.readTree(list.out());
        assertThat(contexts.path("current_context").asText()).isEqualTo("ci");
        assertThat(contexts.path("contexts")).extracting(c -> c.path("name").asText()).containsExactly("ci", "bob");
        assertThat(contexts.path("contexts").get(1).path("own_login").asBoolean()).as("bob's login is its own")
                .isTrue();
        assertThat(cli.run("context", "list").out()).contains("*        ci").contains(kernel.url());

        // a context's tenant applies like --tenant: bob is no platform_admin, so acting on another tenant is refused
        assertThat(cli.run("context", "set", "bob", "--tenant", OTHER_TENANT.toString()).exitCode()).isZero();
        CliRunner.Result refused = cli.run("--context", "bob", "status");
        assertThat(refused.exitCode()).as(refused.toString()).isEqualTo(3);
        assertThat(cli.run("context", "set", "bob", "--tenant", "current", "-o", "json").exitCode()).isZero();
        CliRunner.Result asJson = cli.run("--context", "bob", "status");
        assertThat(JSON.readTree(asJson.out()).path("whoami").path("username").asText())
                .as("the context's output default").isEqualTo("bob");
        assertThat(cli.run("--context", "bob", "status", "-o", "table").out()).contains("user       bob");

        assertThat(cli.run("context", "rename", "bob", "reviewer").exitCode()).isZero();
        assertThat(user(cli.run("--context", "reviewer", "status", "--json"))).as("the login moved with the name")
                .isEqualTo("bob");
        CliRunner.Result unknown = cli.run("--context", "bob", "status");
        assertThat(unknown.exitCode()).isEqualTo(2);
        assertThat(unknown.err()).contains("no context 'bob'").contains("ci, reviewer");
        CliRunner.Result deleted = cli.run("context", "delete", "reviewer");
        assertThat(deleted.out()).contains("and its login");
        assertThat(storedTokens(home).size()).as("only the machine's login is left").isEqualTo(1);
        assertThat(machine.out() + machine.err() + list.out() + status.out()).doesNotContain(secret);
    }

    private static String user(CliRunner.Result status) throws Exception {
        assertThat(status.exitCode()).as(status.toString()).isZero();
        return JSON.readTree(status.out()).path("whoami").path("username").asText();
    }

    @Test
    void printTokenPrintsOnlyTheAccessToken() throws Exception {
        CliRunner bob = newCli("bob");
        CliRunner.Result login = login(bob, "bob", "--print-token");
        assertThat(login.exitCode()).as(login.toString()).isZero();
        String token = login.out().trim();
        assertThat(token.split("\\.")).hasSize(3);
        assertThat(kernel.get("/api/v1/whoami", token).json().path("tenant_role").asText()).isEqualTo("operator");
    }

    @Test
    void roleShortfallIsRefusedWithExitCode3() throws Exception {
        CliRunner carol = newCli("carol");
        assertThat(login(carol, "carol").exitCode()).isZero();
        CliRunner.Result shown = carol.run("tenants", "flight-recorder-policy", "show");
        assertThat(shown.exitCode()).as(shown.toString()).isZero();
        CliRunner.Result denied = carol.run("tenants", "flight-recorder-policy", "set", "--enabled", "true");
        assertThat(denied.exitCode()).as(denied.toString()).isEqualTo(3);
        assertThat(denied.err()).contains("insufficient_role");
    }

    @Test
    void onlyAPlatformAdminMayNameAnotherTenant() throws Exception {
        CliRunner carol = newCli("carol2");
        assertThat(login(carol, "carol").exitCode()).isZero(); // makes OTHER_TENANT known to the kernel
        CliRunner bob = newCli("bob2");
        assertThat(login(bob, "bob").exitCode()).isZero();
        CliRunner.Result refused = bob.run("status", "--tenant", OTHER_TENANT.toString());
        assertThat(refused.exitCode()).as(refused.toString()).isEqualTo(3);
        assertThat(refused.err()).contains("insufficient_role");

        CliRunner dave = newCli("dave");
        assertThat(login(dave, "dave").exitCode()).isZero();
        CliRunner.Result acting = dave.run("status", "--json", "--tenant", OTHER_TENANT.toString());
        assertThat(acting.exitCode()).as(acting.toString()).isZero();
        JsonNode me = JSON.readTree(acting.out()).path("whoami");
        assertThat(me.path("tenant_id").asText()).isEqualTo(OTHER_TENANT.toString());
        assertThat(me.path("platform_admin").asBoolean()).isTrue();
    }

    @Test
    void offlineTokensOnlyOnceProvisioned() throws Exception {
        ensureBootstrapped();
        CliRunner alice = newCli("alice-offline");
        CliRunner.Result refused = login(alice, "alice", "--offline");
        assertThat(refused.exitCode()).as(refused.toString()).isEqualTo(1);
        assertThat(refused.err()).contains("--cli-offline-access");
        // by default an offline token is asked for; without offline access the login still works, and says so
        Path sessionHome = work.resolve("alice-session-" + UUID.randomUUID());
        CliRunner.Result session = login(new CliRunner(sessionHome), "alice");
        assertThat(session.exitCode()).as(session.toString()).isZero();
        assertThat(session.err()).contains("note: client 'svc-cli' has no offline access");
        assertThat(session.out()).doesNotContain("offline token");
        CliRunner.Result sessionStatus = new CliRunner(sessionHome).run("status");
        assertThat(sessionStatus.out()).contains("login      session token (ends with your identity-provider session)")
                .contains("unless used before then");

        CliRunner.Result provision = bootstrap("--skip-user-provisioning", "--cli-offline-access");
        assertThat(provision.exitCode()).as(provision.toString()).isZero();
        assertThat(provision.out()).contains("allow offline_access on client svc-cli")
                .contains("client.offline.session.idle.timeout");
        JsonNode cli = keycloak.adminJson("/" + REALM + "/clients?clientId=svc-cli").get(0);
        assertThat(cli.path("attributes").path("client.offline.session.idle.timeout").asText()).isEqualTo("172800");

        Path home = work.resolve("alice-offline-2");
        CliRunner.Result ok = login(new CliRunner(home), "alice", "--offline");
        assertThat(ok.exitCode()).as(ok.toString()).isZero();
        assertThat(ok.out()).contains("with an offline token");
        assertThat(storedTokens(home).path(kernel.url()).path("offline").asBoolean()).isTrue();
        // once provisioned, a plain svc login is an offline one: it lasts the deploy's offline idle bound
        Path byDefault = work.resolve("alice-offline-3");
        CliRunner.Result plain = login(new CliRunner(byDefault), "alice");
        assertThat(plain.exitCode()).as(plain.toString()).isZero();
        assertThat(plain.out()).contains("with an offline token");
        assertThat(plain.err()).doesNotContain("note:");
        assertThat(new CliRunner(byDefault).run("status").out()).contains("login      offline token, refreshed as used");
        CliRunner.Result optedOut = login(new CliRunner(work.resolve("alice-offline-4")), "alice", "--no-offline");
        assertThat(optedOut.exitCode()).as(optedOut.toString()).isZero();
        assertThat(optedOut.out()).doesNotContain("offline token");

        // back to the default: offline access is withdrawn again
        CliRunner.Result withdraw = bootstrap("--skip-user-provisioning");
        assertThat(withdraw.out()).contains("remove offline_access from client svc-cli");
    }

    @Test
    void anMcpClientTokenFromKeycloakCarriesTheResourceAndScopeAndOpensMcp() throws Exception {
        ensureBootstrapped();
        // the MCP client uses the browser flow; for the test, let it take a password grant too
        String mcpId = keycloak.adminJson("/" + REALM + "/clients?clientId=svc-mcp").get(0).path("id").asText();
        ObjectNode mcp = (ObjectNode) keycloak.adminJson("/" + REALM + "/clients/" + mcpId);
        mcp.put("directAccessGrantsEnabled", true);
        assertThat(keycloak.admin("PUT", "/" + REALM + "/clients/" + mcpId, mcp).statusCode()).isEqualTo(204);
        JsonNode grant = keycloak.form(keycloak.url() + "/realms/" + REALM + "/protocol/openid-connect/token", Map.of(
                "grant_type", "password", "client_id", "svc-mcp", "username", "bob", "password", PASSWORD,
                "scope", "openid"));
        String token = grant.path("access_token").asText();
        assertThat(grant.path("scope").asText()).contains("svc:mcp");
        var http = java.net.http.HttpClient.newHttpClient();
        var r = http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(kernel.url() + "/mcp"))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,"
                        + "\"method\":\"tools/list\"}")).build(), java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(r.body()).contains("call_operation");
        assertThat(kernel.get("/api/v1/whoami", token).status()).as("an MCP token is not a REST token").isEqualTo(401);

        // what the README tells a user: the device flow of the MCP client through svc login
        CliRunner.Result mcpLogin = login(newCli("bob-mcp"), "bob", "--client-id", "svc-mcp", "--scope",
                "openid,svc:mcp", "--print-token");
        assertThat(mcpLogin.exitCode()).as(mcpLogin.toString()).isZero();
        String viaLogin = mcpLogin.out().trim();
        var listed = http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(kernel.url() + "/mcp"))
                .header("Authorization", "Bearer " + viaLogin).header("Content-Type", "application/json")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":2,"
                        + "\"method\":\"tools/list\"}")).build(), java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(listed.statusCode()).as(listed.body()).isEqualTo(200);
    }

    @Test
    void theKernelRefusesTokensItMustNotAccept() throws Exception {
        ensureBootstrapped();
        // a good token, for comparison
        CliRunner bob = newCli("bob3");
        String good = login(bob, "bob", "--print-token").out().trim();
        assertThat(kernel.get("/api/v1/whoami", good).status()).isEqualTo(200);

        // wrong audience: same realm, a client without the backplane audience
        String wrongAudience = keycloak.passwordGrant(REALM, "bob", PASSWORD).path("access_token").asText();
        assertThat(wrongAudience).isNotEmpty();
        assertThat(kernel.get("/api/v1/whoami", wrongAudience).status()).isEqualTo(401);

        // another issuer: the master realm
        String master = keycloak.passwordGrant("master", KeycloakServer.ADMIN, keycloak.adminPassword())
                .path("access_token").asText();
        var otherIssuer = kernel.get("/api/v1/whoami", master);
        assertThat(otherIssuer.status()).isEqualTo(401);
        assertThat(otherIssuer.header("WWW-Authenticate")).hasValueSatisfying(h -> assertThat(h).contains("invalid_token"));

        // tampered signature
        String[] parts = good.split("\\.");
        String flipped = parts[2].charAt(0) == 'A' ? "B" + parts[2].substring(1) : "A" + parts[2].substring(1);
        assertThat(kernel.get("/api/v1/whoami", parts[0] + "." + parts[1] + "." + flipped).status()).isEqualTo(401);

        // alg: none with the genuine claims
        String none = Base64.getUrlEncoder().withoutPadding().encodeToString("{\"alg\":\"none\",\"typ\":\"JWT\"}"
                .getBytes()) + "." + parts[1] + ".";
        assertThat(kernel.get("/api/v1/whoami", none).status()).isEqualTo(401);

        // expired: a 1-second access token from the real realm, used after it lapsed
        String cliId = keycloak.adminJson("/" + REALM + "/clients?clientId=svc-cli").get(0).path("id").asText();
        ObjectNode cli = (ObjectNode) keycloak.adminJson("/" + REALM + "/clients/" + cliId);
        cli.withObjectProperty("attributes").put("access.token.lifespan", "1");
        assertThat(keycloak.admin("PUT", "/" + REALM + "/clients/" + cliId, cli).statusCode()).isEqualTo(204);
        try {
            Path home = work.resolve("bob-short");
            assertThat(login(new CliRunner(home), "bob").exitCode()).isZero();
            JsonNode stored = storedTokens(home).path(kernel.url());
            JsonNode refreshed = keycloak.form(stored.path("token_endpoint").asText(), Map.of(
                    "grant_type", "refresh_token", "client_id", "svc-cli",
                    "refresh_token", stored.path("refresh_token").asText()));
            String shortLived = refreshed.path("access_token").asText();
            // Keycloak reports expires_in as exp minus its own clock, so a second boundary crossed while it
            // answers reads 0: the lifespan is 1 s either way
            assertThat(refreshed.path("expires_in").asInt()).as(refreshed.toString()).isBetween(0, 1);
            Thread.sleep(3_500);
            var expired = kernel.get("/api/v1/whoami", shortLived);
            assertThat(expired.status()).isEqualTo(401);
            assertThat(expired.json().path("message").asText()).contains("expired");
        } finally {
            cli.withObjectProperty("attributes").put("access.token.lifespan", "300");
            keycloak.admin("PUT", "/" + REALM + "/clients/" + cliId, cli);
        }
    }
}
