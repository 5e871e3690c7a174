package dev.backplane.kernel.targets;

import static org.assertj.core.api.Assertions.assertThat;

import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.ErrorCode;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Security review D23: a plugin's error never carries the credential it was given. */
class ConnectorSessionsScrubTest {

    @Test
    void credentialValuesAreRemovedFromPluginErrors() {
        String secret = "hunter2-" + System.nanoTime();
        ConnectorException raw = new ConnectorException(ErrorCode.CONNECTOR_ERROR, "plugin x failed: "
                + "java.io.IOException: login svc:" + secret + "@db refused",
                Map.of("exception_message", "password " + secret + " rejected", "status", 401),
                new IllegalStateException(secret));
        ConnectorException clean = ConnectorSessions.scrubbed(raw, List.of("svc", secret));
        assertThat(clean.getMessage()).doesNotContain(secret).contains("login svc:***@db");
        assertThat(clean.extras().toString()).doesNotContain(secret);
        assertThat(clean.extras()).containsEntry("status", 401);
        assertThat(clean.getCause()).as("the cause chain is dropped").isNull();
        assertThat(clean.code()).isEqualTo(ErrorCode.CONNECTOR_ERROR);
        ConnectorException harmless = new ConnectorException(ErrorCode.CONNECTOR_TIMEOUT, "no answer in 30 s");
        assertThat(ConnectorSessions.scrubbed(harmless, List.of(secret))).isSameAs(harmless);
    }
}
