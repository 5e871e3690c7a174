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

    @Test
    void aLineLoggedInARecordedSpanCarriesItsTraceAndSpanIds() throws Exception {
        try (io.opentelemetry.sdk.trace.SdkTracerProvider tracing = io.opentelemetry.sdk.trace.SdkTracerProvider.builder()
                .addSpanProcessor(io.opentelemetry.sdk.trace.export.SimpleSpanProcessor.create(
                        io.opentelemetry.sdk.trace.export.SpanExporter.composite())).build()) {
            io.opentelemetry.api.trace.Span span = tracing.get("test").spanBuilder("GET /x").startSpan();
            JsonNode inSpan;
            try (io.opentelemetry.context.Scope ignored = span.makeCurrent()) {
                inSpan = JsonMapping.mapper().readTree(new JsonLogFormatter().format(new LogRecord(Level.INFO, "in")));
            } finally {
                span.end();
            }
            assertThat(inSpan.path("trace_id").asText()).isEqualTo(span.getSpanContext().getTraceId()).hasSize(32);
            assertThat(inSpan.path("span_id").asText()).isEqualTo(span.getSpanContext().getSpanId()).hasSize(16);
        }
        JsonNode outside = JsonMapping.mapper().readTree(new JsonLogFormatter().format(new LogRecord(Level.INFO, "out")));
        assertThat(outside.has("trace_id")).isFalse();
        assertThat(outside.has("span_id")).isFalse();

        // tracing off: the no-op tracer only wraps a caller's context; its ids are not the kernel's span, not shown
        io.opentelemetry.api.trace.Span noop = io.opentelemetry.api.OpenTelemetry.noop().getTracer("t")
                .spanBuilder("x").setParent(io.opentelemetry.context.Context.root().with(
                        io.opentelemetry.api.trace.Span.wrap(io.opentelemetry.api.trace.SpanContext.create(
                                "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7",
                                io.opentelemetry.api.trace.TraceFlags.getSampled(),
                                io.opentelemetry.api.trace.TraceState.getDefault())))).startSpan();
        try (io.opentelemetry.context.Scope ignored = noop.makeCurrent()) {
            JsonNode off = JsonMapping.mapper().readTree(new JsonLogFormatter().format(new LogRecord(Level.INFO, "off")));
            assertThat(noop.getSpanContext().isValid()).isTrue();
            assertThat(off.has("trace_id")).isFalse();
            assertThat(off.has("span_id")).isFalse();
        }
    }
}
