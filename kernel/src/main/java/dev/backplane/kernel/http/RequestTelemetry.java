package dev.backplane.kernel.http;

import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.identity.Caller;
import io.helidon.http.HttpException;
import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapPropagator;
import java.lang.System.Logger.Level;
import java.time.Duration;

/**
 * Times every request into {@code http_server_requests_seconds} (labels: method, route template, status) and,
 * when enabled, writes one access-log line per request (logger {@code svc.access}) with the request id, the
 * caller's principal kind, the route template, the status and the duration.
 *
 * <p>Labels come only from bounded sets: the route <em>template</em> a request matched (never its path, so ids in
 * paths cannot multiply series), {@code unmatched} for everything else, the method and the status code. Runs inside
 * {@link RequestIds}, so the access line carries the request id (and, in the JSON log format, the tenant). With
 * tracing on, the request is a server span named {@code <method> <route template>}, continuing the caller's W3C
 * {@code traceparent}; the dispatch stages below it are its children.
 */
public record RequestTelemetry(MeterRegistry registry, boolean accessLog, Tracer tracer, TextMapPropagator propagator)
        implements Filter {

    private static final System.Logger ACCESS = System.getLogger("svc.access");
    static final String UNMATCHED = "unmatched";

    private static final TextMapGetter<RoutingRequest> HEADERS = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(RoutingRequest req) {
            return req.headers().stream().map(h -> h.name()).toList();
        }

        @Override
        public String get(RoutingRequest req, String key) {
            return req == null ? null : req.headers().first(io.helidon.http.HeaderNames.create(key)).orElse(null);
        }
    };

    @Override
    public void filter(FilterChain chain, RoutingRequest req, RoutingResponse res) {
        long t0 = System.nanoTime();
        int status = -1;
        String method = req.prologue().method().text();
        Span span = tracer.spanBuilder(method).setParent(propagator.extract(Context.root(), req, HEADERS))
                .setSpanKind(SpanKind.SERVER).setAttribute("http.request.method", method)
                .setAttribute("svc.request_id", RequestIds.of(req)).startSpan();
        try (Scope ignored = span.makeCurrent()) {
            chain.proceed();
        } catch (DomainException e) {
            status = ErrorMapping.status(e.kind()).code();
            throw e;
        } catch (HttpException e) {
            status = e.status().code();
            throw e;
        } catch (RuntimeException | Error e) {
            status = 500;
            throw e;
        } finally {
            long nanos = System.nanoTime() - t0;
            int code = status > 0 ? status : res.status().code();
            String route = req.context().get(ApiRoutes.Template.class, ApiRoutes.Template.class)
                    .map(ApiRoutes.Template::path).orElse(UNMATCHED);
            span.updateName(method + " " + route);
            span.setAttribute("http.route", route);
            span.setAttribute("http.response.status_code", code);
            if (code >= 500) {
                span.setStatus(StatusCode.ERROR);
            }
            span.end();
            Timer.builder("http.server.requests").description("HTTP requests by route template and status")
                    .tag("method", method).tag("route", route).tag("status", Integer.toString(code))
                    .serviceLevelObjectives(Buckets.LATENCY)
                    .register(registry).record(nanos, java.util.concurrent.TimeUnit.NANOSECONDS);
            if (accessLog) {
                try (Scope current = span.makeCurrent()) { // the access line carries the request's trace and span ids
                    String kind = req.context().get(Caller.class, Caller.class).map(c -> c.kind().wireName()).orElse("-");
                    ACCESS.log(Level.INFO, () -> "access request_id=" + RequestIds.of(req) + " method=" + method
                            + " route=" + route + " status=" + code + " duration_ms=" + nanos / 1_000_000
                            + " principal_kind=" + kind);
                }
            }
        }
    }

    /** The latency buckets every timer of the kernel publishes (a bounded set: 14 buckets per series). */
    public static final class Buckets {
        public static final Duration[] LATENCY = {Duration.ofMillis(1), Duration.ofMillis(2), Duration.ofMillis(5),
                Duration.ofMillis(10), Duration.ofMillis(25), Duration.ofMillis(50), Duration.ofMillis(100),
                Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofMillis(2500),
                Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(30)};

        private Buckets() {
        }
    }
}
