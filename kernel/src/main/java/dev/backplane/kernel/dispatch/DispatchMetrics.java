package dev.backplane.kernel.dispatch;

import dev.backplane.kernel.http.RequestTelemetry;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import java.util.concurrent.TimeUnit;

/**
 * The pipeline's meters: {@code svc_dispatch_calls_seconds} (labels connector, op_class, status — the shared
 * connector ids, with a tenant's own connectors as {@code tenant} by the registry's filter, five operation classes
 * and the envelope's few statuses; never a tenant, target, principal or operation id) and {@code svc_dispatch_stage_seconds} (label stage: gate, credential, plugin_call, audit_intent,
 * audit_outcome). With tracing on, a call is a span {@code svc.dispatch} (connector, operation, status) with a child
 * span per stage.
 */
public final class DispatchMetrics {

    /** The stages of a call timed on their own. */
    public enum Stage {
        GATE, CREDENTIAL, PLUGIN_CALL,
        /** The audit row written as started, flushed to disk before the target is called (fail-closed). */
        AUDIT_INTENT,
        /** The outcome written onto that row after the call (group commit). */
        AUDIT_OUTCOME;

        String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** Meters nobody reads: for a pipeline built without a registry (tests, tools). */
    public static final DispatchMetrics NONE = new DispatchMetrics(new CompositeMeterRegistry(),
            OpenTelemetry.noop().getTracer("svc-backplane"));

    private final MeterRegistry registry;
    private final Tracer tracer;
    private final java.util.EnumMap<Stage, Timer> stages = new java.util.EnumMap<>(Stage.class);
    /** One timer per (connector, operation class, status), registered on first use. */
    private final java.util.concurrent.ConcurrentMap<CallSeries, Timer> calls = new java.util.concurrent.ConcurrentHashMap<>();

    public DispatchMetrics(MeterRegistry registry, Tracer tracer) {
        this.registry = registry;
        this.tracer = tracer;
        for (Stage stage : Stage.values()) {
            stages.put(stage, Timer.builder("svc.dispatch.stage").description("time spent in one stage of a dispatch")
                    .tag("stage", stage.label()).serviceLevelObjectives(RequestTelemetry.Buckets.LATENCY)
                    .register(registry));
        }
    }

    /** Times {@code work} as {@code stage} (and traces it as a child span), whether it returns or throws. */
    <T> T time(Stage stage, java.util.function.Supplier<T> work) {
        long t0 = System.nanoTime();
        Span span = tracer.spanBuilder("svc.dispatch." + stage.label()).startSpan();
        try (Scope ignored = span.makeCurrent()) {
            return work.get();
        } catch (RuntimeException | Error e) {
            span.setStatus(StatusCode.ERROR, e.getClass().getSimpleName());
            throw e;
        } finally {
            span.end();
            stages.get(stage).record(System.nanoTime() - t0, TimeUnit.NANOSECONDS);
        }
    }

    /** Runs a whole call inside a span {@code svc.dispatch}, named by its connector and operation. */
    ResultEnvelope traced(String connectorId, String opId, java.util.function.Supplier<ResultEnvelope> call) {
        Span span = tracer.spanBuilder("svc.dispatch").setAttribute("svc.connector_id", connectorId)
                .setAttribute("svc.op_id", opId).startSpan();
        try (Scope ignored = span.makeCurrent()) {
            ResultEnvelope env = call.get();
            span.setAttribute("svc.status", env.status());
            Object code = env.extras().get("error_code");
            if (code != null) {
                span.setAttribute("svc.error_code", code.toString());
            }
            return env;
        } catch (RuntimeException | Error e) {
            span.setStatus(StatusCode.ERROR, e.getClass().getSimpleName());
            throw e;
        } finally {
            span.end();
        }
    }

    /** Reports {@code validator}'s compiled-schema cache. */
    void cache(ParamsValidator validator) {
        validator.meterInto(registry);
    }

    /** The labels of one {@code svc_dispatch_calls_seconds} series. */
    private record CallSeries(String connectorId, String opClass, String status) {
    }

    void call(String connectorId, String opClass, String status, long durationMs) {
        calls.computeIfAbsent(new CallSeries(connectorId, opClass, status), k -> Timer.builder("svc.dispatch.calls")
                        .description("dispatches by connector, operation class and outcome").tag("connector", k.connectorId())
                        .tag("op_class", k.opClass()).tag("status", k.status())
                        .serviceLevelObjectives(RequestTelemetry.Buckets.LATENCY).register(registry))
                .record(durationMs, TimeUnit.MILLISECONDS);
    }
}
