package dev.backplane.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.backplane.cli.common.BuildInfo;
import dev.backplane.cli.common.ExitCodes;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.assertj.core.api.AbstractStringAssert;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command tree, run in-process through {@link Svc#run}. The only address any of these tests
 * may reach is 127.0.0.1:1, where nothing listens; every other case fails before any network call.
 */
class SvcTest {

    /** 127.0.0.1 port 1: closed, so a connection is refused at once. */
    static final String CLOSED = "http://127.0.0.1:1";

    @TempDir
    Path xdg;

    private Map<String, String> env;

    /** Exit code and captured output of one run. */
    record Result(int code, String out, String err) {
    }

    @BeforeEach
    void isolatedEnvironment() {
        env = new HashMap<>();
        env.put("XDG_CONFIG_HOME", xdg.toString());
        env.put("HOME", xdg.resolve("home").toString());
        env.put("SVC_TOKEN_STORE", "file");
    }

    private Result svc(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Svc.run(args, new PrintWriter(out, true), new PrintWriter(err, true),
                new ByteArrayInputStream(new byte[0]), env);
        return new Result(code, out.toString(), err.toString());
    }

    /** The words of {@code first}, then those of {@code more}. */
    private static String[] concat(String[] first, String... more) {
        String[] all = Arrays.copyOf(first, first.length + more.length);
        System.arraycopy(more, 0, all, first.length, more.length);
        return all;
    }

    /** Asserts that the run was a usage error (exit 2) and hands back its stderr for what it must say. */
    private static AbstractStringAssert<?> assertUsageError(Result r) {
        assertThat(r.code()).isEqualTo(ExitCodes.USAGE);
        return assertThat(r.err());
    }

    private void assertNothingWritten() throws Exception {
        try (var files = Files.walk(xdg)) {
            assertThat(files.filter(Files::isRegularFile)).as("files under XDG_CONFIG_HOME").isEmpty();
        }
    }

    @Test
    void versionPrintsSvcLine() {
        Result r = svc("version");

        assertThat(r.code()).isEqualTo(ExitCodes.OK);
        assertThat(r.out()).startsWith("svc ").contains("(API level " + BuildInfo.apiLevel() + ",");
        // the backplane's side: none chosen here, which is said, not an error
        assertThat(r.out().lines().toList()).hasSize(2);
        assertThat(r.out().lines().toList().get(1)).startsWith("backplane");
        assertThat(r.out()).contains("java " + Runtime.version().feature());
        assertThat(svc("version", "--client").out().lines().toList()).hasSize(1);
    }

    @Test
    void versionFlagPrintsTheSameLine() {
        Result flag = svc("--version");

        assertThat(flag.code()).isEqualTo(ExitCodes.OK);
        assertThat(flag.out()).startsWith("svc ");
        assertThat(flag.out().strip()).isEqualTo(svc("version", "--client").out().strip());
    }

    @Test
    void everyCommandAndVerbTakesHelp() {
        for (String[] args : new String[][] {{"connector", "--help"}, {"connector", "ingest", "--help"},
                {"connector", "ingest-status", "-h"}, {"kb", "--help"}, {"targets", "add", "--help"},
                {"docs", "collections", "create", "--help"}}) {
            Result r = svc(args);
            assertThat(r.code()).as(String.join(" ", args) + ": " + r.err()).isEqualTo(ExitCodes.OK);
            assertThat(r.out()).contains("Usage: svc " + args[0]);
        }
        assertThat(svc("connector", "ingest", "--help").out()).contains("--catalog").contains("--spec-info-versions-compatible");
    }

    @Test
    void helpListsTheCommands() {
        Result r = svc("--help");

        assertThat(r.code()).isEqualTo(ExitCodes.OK);
        assertThat(r.out()).contains("Usage: svc");
        assertThat(r.out()).containsPattern("(?m)^\\s+login\\b")
                .containsPattern("(?m)^\\s+status\\b")
                .containsPattern("(?m)^\\s+version\\b")
                .containsPattern("(?m)^\\s+admin\\b")
                .containsPattern("(?m)^\\s+tenants\\b")
                .containsPattern("(?m)^\\s+logout\\b");
    }

    @Test
    void unknownCommandIsAUsageError() {
        assertUsageError(svc("frobnicate")).contains("frobnicate");
    }

    @Test
    void noCommandIsAUsageError() {
        assertUsageError(svc()).contains("name a command");
    }

    @Test
    void unknownOptionIsAUsageError() {
        assertUsageError(svc("version", "--no-such-flag")).contains("--no-such-flag");
    }

    @Nested
    class Status {

        @Test
        void withEmptyConfigTellsToLogIn() throws Exception {
            Result r = svc("status");

            assertThat(r.code()).isEqualTo(ExitCodes.NOT_LOGGED_IN);
            assertThat(r.err()).contains("svc login");
            assertThat(r.out()).isEmpty();
            assertNothingWritten();
        }

        @Test
        void plainHttpBackplaneFromTheEnvironmentIsRefused() {
            env.put("SVC_BACKPLANE", "http://example.com");

            assertUsageError(svc("status")).contains("refusing plain http://");
        }

        @Test
        void loopbackHttpWithoutOptInIsRefused() {
            assertUsageError(svc("status", "--backplane", CLOSED)).contains("--insecure-allow-http");
        }

        @Test
        void tenantMustBeAUuid() {
            env.put("SVC_INSECURE_ALLOW_HTTP", "1");

            assertUsageError(svc("status", "--backplane", CLOSED, "--tenant", "not-a-uuid"))
                    .contains("--tenant").contains("not-a-uuid");
        }

        @Test
        void unreachableBackplaneExitsFive() {
            env.put("SVC_INSECURE_ALLOW_HTTP", "1");

            Result r = svc("status", "--backplane", CLOSED);

            assertThat(r.code()).isEqualTo(ExitCodes.UNREACHABLE);
            assertThat(r.err()).contains("cannot reach").contains("127.0.0.1:1");
        }
    }

    @Nested
    class Login {

        @Test
        void plainHttpToNonLoopbackIsRefused() throws Exception {
            Result r = svc("login", "http://example.com");

            assertThat(r.code()).isEqualTo(ExitCodes.USAGE);
            assertThat(r.err()).contains("refusing plain http://").contains("example.com");
            assertNothingWritten();
        }

        @Test
        void plainHttpToNonLoopbackIsRefusedEvenWithInsecureAllowHttp() {
            assertUsageError(svc("login", "http://example.com", "--insecure-allow-http"))
                    .contains("refusing plain http://");
        }

        @Test
        void loopbackHttpNeedsInsecureAllowHttp() throws Exception {
            Result r = svc("login", CLOSED);

            assertThat(r.code()).isEqualTo(ExitCodes.USAGE);
            assertThat(r.err()).contains("--insecure-allow-http");
            assertNothingWritten();
        }

        @Test
        void unreachableBackplaneExitsFive() throws Exception {
            Result r = svc("login", CLOSED, "--insecure-allow-http");

            assertThat(r.code()).isEqualTo(ExitCodes.UNREACHABLE);
            assertThat(r.err()).contains("cannot reach").contains("127.0.0.1:1");
            assertNothingWritten();
        }

        @Test
        void malformedResolveIsAUsageError() {
            assertUsageError(svc("login", CLOSED, "--insecure-allow-http", "--resolve", "kc.example.com:443"))
                    .contains("--resolve").contains("host:port:ip");
        }

        @Test
        void missingUrlIsAUsageError() {
            assertUsageError(svc("login")).contains("<backplane-url>");
        }
    }

    @Nested
    class BootstrapClients {

        private Result bootstrap(String... more) {
            return svc(concat(new String[] {"admin", "idp", "bootstrap-clients"}, more));
        }

        @Test
        void aSetupClientNeedsTheTenantItAdministers() {
            env.put("SVC_BOOTSTRAP_SETUP_SECRET", "a-long-enough-setup-secret");
            assertUsageError(bootstrap("--setup-client-id", "svc-run-setup", "--skip-user-provisioning"))
                    .contains("--setup-client-id needs --tenant-id");
        }

        @Test
        void aServiceClientSecretComesFromTheEnvironmentOnly() {
            assertUsageError(bootstrap("--reader-client-id", "svc-keycloak-reader", "--skip-user-provisioning"))
                    .contains("SVC_BOOTSTRAP_READER_SECRET").contains("never a flag");
        }

        @Test
        void aShortServiceClientSecretIsRefusedWithoutEchoingIt() {
            env.put("SVC_BOOTSTRAP_READER_SECRET", "short-secret");
            assertUsageError(bootstrap("--reader-client-id", "svc-keycloak-reader", "--skip-user-provisioning"))
                    .contains("at least 16 characters").doesNotContain("short-secret");
        }

        @Test
        void aServiceClientCannotReuseThePublicClients() {
            env.put("SVC_BOOTSTRAP_READER_SECRET", "a-long-enough-reader-secret");
            assertUsageError(bootstrap("--reader-client-id", "svc-cli", "--skip-user-provisioning"))
                    .contains("--reader-client-id must name a client of its own");
        }

        @Test
        void aServiceClientCannotReuseTheConsoleClient() {
            env.put("SVC_BOOTSTRAP_READER_SECRET", "a-long-enough-reader-secret");
            assertUsageError(bootstrap("--reader-client-id", "svc-console", "--skip-user-provisioning"))
                    .contains("not the CLI, MCP or console client");
        }

        @Test
        void aConsoleUrlThatIsNotAUrlIsRefused() {
            assertUsageError(bootstrap("--console-url", "not a url", "--skip-user-provisioning"))
                    .contains("--console-url");
        }

        @Test
        void masterRealmIsRefused() {
            assertUsageError(bootstrap("--realm", "master", "--skip-user-provisioning"))
                    .contains("--realm").contains("master");
        }

        @Test
        void masterRealmIsRefusedInAnyCase() {
            assertUsageError(bootstrap("--realm", "MASTER", "--skip-user-provisioning")).contains("--realm");
        }

        @Test
        void mcpResourceUriWithTrailingSlashIsRefused() {
            assertUsageError(bootstrap("--mcp-resource-uri", "http://x/mcp/", "--skip-user-provisioning"))
                    .contains("--mcp-resource-uri").contains("http://x/mcp/");
        }

        @Test
        void caBundleAndSkipTlsVerifyAreMutuallyExclusive() {
            Result r = bootstrap("--keycloak-ca-bundle", "f", "--insecure-skip-tls-verify", "--skip-user-provisioning");

            assertThat(r.code()).isEqualTo(ExitCodes.USAGE);
            assertThat(r.err()).contains("--keycloak-ca-bundle").contains("--insecure-skip-tls-verify");
            assertThat(r.err()).doesNotContain("warning: --insecure-skip-tls-verify");
        }

        @Test
        void userIsRequiredUnlessSkipped() {
            assertUsageError(bootstrap()).contains("--admin-user-username").contains("--skip-user-provisioning");
        }

        @Test
        void skipUserCannotBeCombinedWithUserOptions() {
            assertUsageError(bootstrap("--skip-user-provisioning", "--admin-user-username", "alice"))
                    .contains("--skip-user-provisioning cannot be combined");
        }

        @Test
        void tenantIdMustBeAUuid() {
            assertUsageError(bootstrap("--admin-user-username", "alice", "--tenant-id", "not-a-uuid"))
                    .contains("--tenant-id").contains("not-a-uuid");
        }

        @Test
        void tenantRoleMustBeKnown() {
            assertUsageError(bootstrap("--admin-user-username", "alice", "--tenant-role", "root"))
                    .contains("--tenant-role").contains("'root'");
        }

        @Test
        void offlineAccessMustBePositive() {
            assertUsageError(bootstrap("--skip-user-provisioning", "--cli-offline-access", "0"))
                    .contains("--cli-offline-access");
        }

        @Test
        void plainHttpKeycloakOffLoopbackIsRefused() {
            assertUsageError(bootstrap("--skip-user-provisioning", "--keycloak-base-url",
                    "http://keycloak.example.com"))
                    .contains("refusing plain http://").contains("--keycloak-base-url");
        }

        @Test
        void missingAdminUsernameIsAUsageError() {
            assertUsageError(bootstrap("--skip-user-provisioning", "--keycloak-base-url", CLOSED))
                    .contains("--admin-username").contains("KEYCLOAK_ADMIN_USER");
        }

        @Test
        void missingPasswordWithEmptyStdinIsAUsageError() {
            assertUsageError(bootstrap("--skip-user-provisioning", "--keycloak-base-url", CLOSED, "--admin-username",
                    "admin"))
                    .contains("KEYCLOAK_ADMIN_PASSWORD");
        }
    }

    @Nested
    class FlightRecorderPolicySet {

        private Result set(String... more) {
            return svc(concat(concat(new String[] {"tenants", "flight-recorder-policy", "set"}, more), "--backplane",
                    CLOSED));
        }

        @Test
        void retentionDaysZeroIsAUsageError() {
            assertUsageError(set("--retention-days", "0")).contains("--retention-days").contains("1..365");
        }

        @Test
        void retentionDaysAboveAYearIsAUsageError() {
            assertUsageError(set("--retention-days", "366")).contains("--retention-days").contains("366");
        }

        @Test
        void retentionDaysAndClearRetentionAreExclusive() {
            assertUsageError(set("--retention-days", "30", "--clear-retention")).contains("mutually exclusive");
        }

        @Test
        void nothingToChangeIsAUsageError() {
            assertUsageError(set()).contains("nothing to change");
        }

        @Test
        void nonNumericRetentionIsAUsageError() {
            assertUsageError(set("--retention-days", "ten")).contains("--retention-days");
        }

        @Test
        void withoutStoredLoginTellsToLogIn() {
            env.put("SVC_INSECURE_ALLOW_HTTP", "1");

            Result r = set("--enabled", "true");

            assertThat(r.code()).isEqualTo(ExitCodes.NOT_LOGGED_IN);
            assertThat(r.err()).contains("not logged in").contains("svc login " + CLOSED);
        }

        @Test
        void unreachableBackplaneExitsFive() {
            env.put("SVC_INSECURE_ALLOW_HTTP", "1");
            env.put("SVC_TOKEN", "opaque-test-token");

            Result r = set("--enabled", "true");

            assertThat(r.code()).isEqualTo(ExitCodes.UNREACHABLE);
            assertThat(r.err()).contains("cannot reach").contains("127.0.0.1:1");
            assertThat(r.err()).doesNotContain("opaque-test-token");
        }
    }
}
