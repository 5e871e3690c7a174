package dev.backplane.kernel.app;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;

/**
 * Optional OpenTelemetry tracing (off unless {@code tracing.otlp-endpoint} is set): one server span per request
 * (continuing the caller's W3C {@code traceparent}), a span per dispatch with child spans for its stages (gate,
 * credential, plugin call, audit), exported in batches over OTLP/HTTP. Off, every tracer is the no-op one.
 */
final class Tracing implements AutoCloseable {

    static final String SERVICE = "svc-backplane";

    private final Optional<SdkTracerProvider> provider;
    private final Tracer tracer;

    private Tracing(Optional<SdkTracerProvider> provider) {
        this.provider = provider;
        this.tracer = provider.<Tracer>map(p -> p.get(SERVICE)).orElseGet(() -> OpenTelemetry.noop().getTracer(SERVICE));
    }

    static Tracing start(Optional<String> endpoint, String version, Duration exportDelay) {
        if (endpoint.isEmpty()) {
            return new Tracing(Optional.empty());
        }
        URI uri;
        try {
            uri = URI.create(endpoint.get());
        } catch (IllegalArgumentException e) {
            throw new KernelConfig.ConfigException("tracing.otlp-endpoint is not a URL: " + endpoint.get());
        }
        if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null) {
            throw new KernelConfig.ConfigException("tracing.otlp-endpoint must be an http(s) URL such as "
                    + "http://127.0.0.1:4318/v1/traces, got " + endpoint.get());
        }
        OtlpHttpSpanExporter exporter = OtlpHttpSpanExporter.builder().setEndpoint(uri.toString())
                .setTimeout(Duration.ofSeconds(10)).build();
        SdkTracerProvider provider = SdkTracerProvider.builder()
                .setResource(Resource.getDefault().merge(Resource.create(Attributes.of(
                        AttributeKey.stringKey("service.name"), SERVICE, AttributeKey.stringKey("service.version"), version))))
                .addSpanProcessor(BatchSpanProcessor.builder(exporter).setScheduleDelay(exportDelay).build())
                .build();
        return new Tracing(Optional.of(provider));
    }

    Tracer tracer() {
        return tracer;
    }

    /** W3C trace context: how an incoming {@code traceparent} is continued. */
    TextMapPropagator propagator() {
        return W3CTraceContextPropagator.getInstance();
    }

    /** Exports what is still buffered, then stops. */
    @Override
    public void close() {
        provider.ifPresent(SdkTracerProvider::close);
    }
}
