package dev.backplane.kernel.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.util.JsonMapping;
import io.helidon.logging.common.HelidonMdc;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;

class JsonLogFormatterTest {

    @Test
    void aLineIsOneJsonObjectWithTheRequestAndTenantItWasWrittenFor() throws Exception {
        LogRecord r = new LogRecord(Level.WARNING, "target {0} refused: \"quoted\"\nsecond line");
        r.setParameters(new Object[] {"prod-1"});
        r.setLoggerName("dev.backplane.kernel.dispatch.Dispatcher");
        r.setThrown(new IllegalStateException("boom"));
        HelidonMdc.set("request_id", "req-42");
        HelidonMdc.set("tenant_id", "t-1");
        String line;
        try {
            line = new JsonLogFormatter().format(r);
        } finally {
            HelidonMdc.remove("request_id");
            HelidonMdc.remove("tenant_id");
        }
        assertThat(line.strip().lines()).as("one line").hasSize(1);
        JsonNode j = JsonMapping.mapper().readTree(line);
        assertThat(j.path("level").asText()).isEqualTo("WARNING");
        assertThat(j.path("logger").asText()).isEqualTo("dev.backplane.kernel.dispatch.Dispatcher");
        assertThat(j.path("request_id").asText()).isEqualTo("req-42");
        assertThat(j.path("tenant_id").asText()).isEqualTo("t-1");
        assertThat(j.path("message").asText()).isEqualTo("target prod-1 refused: \"quoted\"\nsecond line");
        assertThat(j.path("error").asText()).contains("IllegalStateException: boom");
        assertThat(j.path("stack").asText()).contains("JsonLogFormatterTest");
        assertThat(j.path("ts").asText()).isNotEmpty();
    }

    @Test
    void outsideARequestThereIsNoRequestOrTenant() throws Exception {
        JsonNode j = JsonMapping.mapper().readTree(new JsonLogFormatter().format(new LogRecord(Level.INFO, "ready")));
        assertThat(j.has("request_id")).isFalse();
        assertThat(j.has("tenant_id")).isFalse();
        assertThat(j.path("message").asText()).isEqualTo("ready");
    }
}
