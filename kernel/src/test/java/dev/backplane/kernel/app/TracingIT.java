package dev.backplane.kernel.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.backplane.kernel.testing.BeforeKernel;
import dev.backplane.kernel.testing.KernelSetup;
import dev.backplane.kernel.testing.KernelTest;
import dev.backplane.kernel.testing.LoopbackTarget;
import dev.backplane.kernel.testing.TestIssuer;
import dev.backplane.kernel.testing.TestKernel;
import dev.backplane.kernel.testing.TestPlugins;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.trace.v1.Span;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * {@code tracing.otlp-endpoint} set: a call through the gate is exported over OTLP/HTTP to a loopback collector as
 * one trace continuing the caller's {@code traceparent} — the server span named by its route template, a
 * {@code svc.dispatch} span and a child span per stage — and no secret rides along in any attribute.
 */
@KernelTest
class TracingIT {

    private static final String PASSWORD = "trace-pw-" + UUID.randomUUID();
    private static final List<Span> SPANS = new CopyOnWriteArrayList<>();
    private static final List<String> RESOURCES = new CopyOnWriteArrayList<>();
    /** The traceparent header of each request the target got ("none" when absent), in order. */
    private static final List<String> TARGET_TRACEPARENTS = new CopyOnWriteArrayList<>();
    private static LoopbackTarget target;
    private static TestIssuer issuer;
    private static TestKernel kernel;

    @BeforeKernel
    static void start(KernelSetup setup) throws IOException {
        target = LoopbackTarget.basicAuthItems(setup, "svc", PASSWORD, x -> TARGET_TRACEPARENTS.add(
                String.valueOf(x.getRequestHeaders().getFirst("traceparent")).replace("null", "none")));
        HttpServer collector = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        collector.createContext("/v1/traces", x -> {
            ExportTraceServiceRequest export = ExportTraceServiceRequest.parseFrom(x.getRequestBody().readAllBytes());
            export.getResourceSpansList().forEach(rs -> {
                RESOURCES.add(rs.getResource().toString());
                rs.getScopeSpansList().forEach(ss -> SPANS.addAll(ss.getSpansList()));
            });
            x.sendResponseHeaders(200, -1);
            x.close();
        });
        collector.start();
        setup.closeAfter(() -> collector.stop(0));
        setup.setting("SVC_TRACING_OTLP_ENDPOINT", "http://127.0.0.1:" + collector.getAddress().getPort() + "/v1/traces");
        setup.setting("SVC_TRACING_EXPORT_DELAY_MS", "100");
        setup.setting("SVC_LOG_ACCESS", "true"); // the access line is the one that carries the request's span ids
        setup.plugin(TestPlugins.connector("trc", "1.x").product("trc").ranges("*").operations(2).httpProbe(false));
    }

    @Test
    void aCallIsOneTraceContinuingTheCallersTraceparent() throws Exception {
        UUID tenant = UUID.randomUUID();
        String admin = issuer.tenantAdmin(tenant);
        kernel.enableConnector(admin, "trc-1.x");
        target.register(kernel, admin, "tr-1", "trc");
        target.register(kernel, admin, "tr-quiet", "trc", Map.of("trace_context", false));
        String traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
        var r = kernel.send("POST", "/api/v1/operations/call", issuer.operator(tenant), "{\"connector_id\": \"trc-1.x\", "
                + "\"op_id\": \"trc.item0.list\", \"target\": \"tr-1\", \"params\": {}}",
                Map.of("traceparent", "00-" + traceId + "-00f067aa0ba902b7-01"));
        assertThat(r.status()).as(r.body()).isEqualTo(200);

        Instant deadline = Instant.now().plusSeconds(20);
        while (Instant.now().isBefore(deadline) && SPANS.stream().noneMatch(s -> s.getName().equals(
                "POST /api/v1/operations/call") && hex(s.getTraceId().toByteArray()).equals(traceId))) {
            Thread.sleep(50);
        }
        List<Span> trace = SPANS.stream().filter(s -> hex(s.getTraceId().toByteArray()).equals(traceId)).toList();
        assertThat(trace).extracting(Span::getName).contains("POST /api/v1/operations/call", "svc.dispatch",
                "svc.dispatch.gate", "svc.dispatch.credential", "svc.dispatch.audit_intent", "svc.dispatch.plugin_call",
                "svc.dispatch.audit_outcome");
        Span server = trace.stream().filter(s -> s.getName().startsWith("POST ")).findFirst().orElseThrow();
        assertThat(hex(server.getParentSpanId().toByteArray())).as("continues the caller's span").isEqualTo("00f067aa0ba902b7");
        Span dispatch = trace.stream().filter(s -> s.getName().equals("svc.dispatch")).findFirst().orElseThrow();
        assertThat(dispatch.getParentSpanId()).isEqualTo(server.getSpanId());
        assertThat(trace.stream().filter(s -> s.getName().startsWith("svc.dispatch.")))
                .allSatisfy(s -> assertThat(s.getParentSpanId()).isEqualTo(dispatch.getSpanId()));
        assertThat(dispatch.getAttributesList().toString()).contains("trc.item0.list", "ok");
        assertThat(server.getAttributesList().toString()).contains("/api/v1/operations/call", "200");
        assertThat(RESOURCES).anySatisfy(res -> assertThat(res).contains("svc-backplane"));
        assertThat(SPANS.toString()).as("no secret in any span").doesNotContain(PASSWORD);

        Span pluginCall = trace.stream().filter(s -> s.getName().equals("svc.dispatch.plugin_call")).findFirst()
                .orElseThrow();
        assertThat(TARGET_TRACEPARENTS).as("the target joins the trace under the plugin-call span")
                .contains("00-" + traceId + "-" + hex(pluginCall.getSpanId().toByteArray()) + "-01");

        int before = TARGET_TRACEPARENTS.size();
        var quiet = kernel.send("POST", "/api/v1/operations/call", issuer.operator(tenant), "{\"connector_id\": "
                + "\"trc-1.x\", \"op_id\": \"trc.item0.list\", \"target\": \"tr-quiet\", \"params\": {}}",
                Map.of("traceparent", "00-" + traceId + "-00f067aa0ba902b7-01"));
        assertThat(quiet.status()).as(quiet.body()).isEqualTo(200);
        assertThat(TARGET_TRACEPARENTS.subList(before, TARGET_TRACEPARENTS.size()))
                .as("a target with extras trace_context false gets no trace headers").isNotEmpty().containsOnly("none");
    }

    @Test
    void aJsonLogLineOfARequestCarriesTheIdsOfItsServerSpan() throws Exception {
        List<String> lines = new CopyOnWriteArrayList<>();
        JsonLogFormatter json = new JsonLogFormatter();
        java.util.logging.Handler capture = new java.util.logging.Handler() {
            @Override
            public void publish(java.util.logging.LogRecord r) {
                lines.add(json.format(r));
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        java.util.logging.Logger.getLogger("").addHandler(capture);
        String traceId = "0af7651916cd43dd8448eb211c80319c";
        try {
            var r = kernel.send("GET", "/api/v1/targets", issuer.operator(UUID.randomUUID()), null,
                    Map.of("traceparent", "00-" + traceId + "-b7ad6b7169203331-01"));
            assertThat(r.status()).as(r.body()).isEqualTo(200);
            // the access line is written once the response is out, so it may come after the client has it
            Instant logged = Instant.now().plusSeconds(10);
            while (Instant.now().isBefore(logged) && lines.stream().noneMatch(l -> l.contains("svc.access")
                    && l.contains("route=/api/v1/targets"))) {
                Thread.sleep(20);
            }
        } finally {
            java.util.logging.Logger.getLogger("").removeHandler(capture);
        }
        var access = lines.stream().map(l -> {
            try {
                return dev.backplane.kernel.util.JsonMapping.mapper().readTree(l);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }).filter(j -> j.path("logger").asText().equals("svc.access") && j.path("message").asText()
                .contains("route=/api/v1/targets")).findFirst().orElseThrow(() -> new AssertionError(lines));
        assertThat(access.path("trace_id").asText()).isEqualTo(traceId);
        Instant deadline = Instant.now().plusSeconds(20);
        while (Instant.now().isBefore(deadline) && SPANS.stream().noneMatch(s -> hex(s.getTraceId().toByteArray())
                .equals(traceId) && s.getName().startsWith("GET "))) {
            Thread.sleep(50);
        }
        Span server = SPANS.stream().filter(s -> hex(s.getTraceId().toByteArray()).equals(traceId)
                && s.getName().startsWith("GET ")).findFirst().orElseThrow();
        assertThat(access.path("span_id").asText()).as("the request's server span, not the caller's")
                .isEqualTo(hex(server.getSpanId().toByteArray())).isNotEqualTo("b7ad6b7169203331");
    }

    @Test
    void aMalformedEndpointStopsTheStart() {
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> Tracing.start(
                java.util.Optional.of("collector:4318"), "x", java.time.Duration.ofSeconds(1))))
                .isInstanceOf(KernelConfig.ConfigException.class).hasMessageContaining("tracing.otlp-endpoint");
    }

    private static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }
}
