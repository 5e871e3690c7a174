package dev.backplane.kernel.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.ErrorCode;
import dev.backplane.plugin.api.Fingerprint;
import dev.backplane.plugin.api.OperationResult;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Security review D23 and the canary sweep: nothing a plugin hands back carries the credential it was
 * given — not as the value, not as HTTP Basic, not as a token inside a kubeconfig.
 */
class ConnectorSessionsScrubTest {

    private static final String PASSWORD = "hunter2-" + System.nanoTime();
    private static final String TOKEN = "eyJhbGciOiJSUzI1NiJ9.c2VjcmV0LXRva2Vu." + System.nanoTime();
    private static final String KUBECONFIG = "apiVersion: v1\nclusters:\n- cluster:\n    server: https://10.0.0.1:6443\n"
            + "users:\n- name: svc\n  user:\n    token: " + TOKEN + "\n";
    private static final String BASIC = Base64.getEncoder().encodeToString(("svc:" + PASSWORD)
            .getBytes(StandardCharsets.UTF_8));
    private final SecretScrubber scrubber = SecretScrubber.of(List.of("svc", PASSWORD, KUBECONFIG));

    @Test
    void exceptionsLoseTheCredentialInEveryFormAndTheirCause() {
        ConnectorException raw = new ConnectorException(ErrorCode.CONNECTOR_ERROR, "plugin x failed: login svc:"
                + PASSWORD + "@db refused; sent Authorization: Basic " + BASIC,
                Map.of("exception_message", "password " + PASSWORD + " rejected", "status", 401),
                new IllegalStateException(PASSWORD));
        ConnectorException clean = scrubber.exception(raw);
        assertThat(clean.getMessage()).doesNotContain(PASSWORD).doesNotContain(BASIC).contains("login svc:***@db");
        assertThat(clean.extras().toString()).doesNotContain(PASSWORD);
        assertThat(clean.extras()).containsEntry("status", 401);
        assertThat(clean.getCause()).as("the cause chain is dropped").isNull();
        ConnectorException harmless = new ConnectorException(ErrorCode.CONNECTOR_TIMEOUT, "no answer in 30 s");
        assertThat(scrubber.exception(harmless)).isSameAs(harmless);
    }

    @Test
    void resultsFailuresAndFingerprintsLoseItToo() {
        var rows = scrubber.result(new OperationResult.Rows(List.of(Map.of("echo", "Authorization: Basic " + BASIC,
                "n", 1, "nested", List.of(Map.of("t", "Bearer " + TOKEN))))));
        assertThat(rows.toString()).doesNotContain(BASIC).doesNotContain(TOKEN).contains("n=1");
        var doc = scrubber.result(new OperationResult.Document(Map.of("body", "your password " + PASSWORD)));
        assertThat(doc.toString()).doesNotContain(PASSWORD);
        var failure = scrubber.result(new OperationResult.Failure(ErrorCode.CONNECTOR_AUTH_FAILED, "token " + TOKEN
                + " expired", Map.of("body", PASSWORD)));
        assertThat(failure.toString()).doesNotContain(TOKEN).doesNotContain(PASSWORD);
        Fingerprint f = scrubber.result(new Fingerprint(Optional.of("acme"), Optional.empty(),
                Optional.of("1.0 (" + PASSWORD + ")"), true, Instant.now(), "GET /version"));
        assertThat(f.version()).hasValue("1.0 (***)");
        List<Map<String, Object>> candidates = scrubber.result(List.of(Map.of("name", "n", "note", TOKEN)));
        assertThat(candidates.toString()).doesNotContain(TOKEN);
        assertThat(scrubber.text("server https://10.0.0.1:6443 is fine")).as("not every piece of a kubeconfig is secret")
                .contains("https://10.0.0.1:6443");
    }

    @Test
    void theLentLoggerScrubsSecretValues() {
        List<String> lines = new ArrayList<>();
        System.Logger sink = new System.Logger() {
            public String getName() {
                return "sink";
            }

            public boolean isLoggable(Level level) {
                return true;
            }

            public void log(Level level, java.util.ResourceBundle b, String msg, Throwable t) {
                lines.add(msg);
            }

            public void log(Level level, java.util.ResourceBundle b, String format, Object... params) {
                lines.add(format);
            }
        };
        var logger = new KernelConnectorContext.ScrubbingLogger(sink, SecretScrubber.of(List.of("hunter2-secret", "xy")));
        logger.log(System.Logger.Level.INFO, "login with hunter2-secret failed");
        logger.log(System.Logger.Level.INFO, "value {0}", "hunter2-secret");
        assertThat(lines).containsExactly("login with *** failed", "value ***");
    }
}
