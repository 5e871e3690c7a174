package dev.backplane.kernel.egress;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.backplane.kernel.testing.LoopbackHttp;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Context;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Which lent clients add W3C trace headers, and what a target then receives. */
class TraceContextHttpClientTest {

    private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String SPAN = "00f067aa0ba902b7";

    private final HttpClient shared = HttpClient.newHttpClient();
    private final List<String> received = new CopyOnWriteArrayList<>();
    private HttpServer server;

    @BeforeEach
    void start() throws Exception {
        server = LoopbackHttp.start(x -> {
            received.add(String.valueOf(x.getRequestHeaders().getFirst("traceparent")));
            x.sendResponseHeaders(204, -1);
            x.close();
        });
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private static Context with(SpanContext span) {
        return Context.root().with(Span.wrap(span));
    }

    private void get(HttpClient client, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.getAddress().getPort()
                + "/x"));
        if (headers.length > 0) {
            b.headers(headers);
        }
        client.send(b.build(), HttpResponse.BodyHandlers.discarding());
    }

    @Test
    void aLocalSpanIsPropagatedToTheTarget() throws Exception {
        SpanContext local = SpanContext.create(TRACE, SPAN, TraceFlags.getSampled(), TraceState.getDefault());
        HttpClient traced = TraceContextHttpClient.of(shared, with(local), Map.of());
        assertThat(traced).isNotSameAs(shared);
        get(traced);
        get(traced, "traceparent", "00-" + TRACE + "-1111111111111111-01");
        assertThat(received).containsExactly("00-" + TRACE + "-" + SPAN + "-01",
                "00-" + TRACE + "-1111111111111111-01");
        traced.close();
        get(shared); // closing the call's view leaves the shared client working
    }

    @Test
    void noSpanARemoteCallersSpanOrATargetThatOptsOutGetsTheSharedClient() {
        SpanContext local = SpanContext.create(TRACE, SPAN, TraceFlags.getSampled(), TraceState.getDefault());
        SpanContext remote = SpanContext.createFromRemoteParent(TRACE, SPAN, TraceFlags.getSampled(),
                TraceState.getDefault());
        assertThat(TraceContextHttpClient.of(shared, Context.root(), Map.of())).isSameAs(shared);
        assertThat(TraceContextHttpClient.of(shared, with(remote), Map.of())).as("tracing off: a caller's "
                + "traceparent is not passed through").isSameAs(shared);
        assertThat(TraceContextHttpClient.of(shared, with(local), Map.of("trace_context", false))).isSameAs(shared);
        assertThat(TraceContextHttpClient.of(shared, with(local), Map.of("trace_context", "FALSE"))).isSameAs(shared);
    }
}
