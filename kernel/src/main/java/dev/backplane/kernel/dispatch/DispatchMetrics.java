package dev.backplane.kernel.dispatch;

import dev.backplane.kernel.http.RequestTelemetry;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import java.util.concurrent.TimeUnit;

/**
 * The pipeline's meters: {@code svc_dispatch_calls_seconds} (labels connector, op_class, status — the connector
 * ids the catalog holds, five operation classes and the envelope's few statuses; never a tenant, target, principal
 * or operation id) and {@code svc_dispatch_stage_seconds} (label stage: gate, credential, plugin_call, audit).
 */
public final class DispatchMetrics {

    /** The stages of a call timed on their own. */
    public enum Stage {
        GATE, CREDENTIAL, PLUGIN_CALL, AUDIT;

        String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** Meters nobody reads: for a pipeline built without a registry (tests, tools). */
    public static final DispatchMetrics NONE = new DispatchMetrics(new CompositeMeterRegistry());

    private final MeterRegistry registry;
    private final java.util.EnumMap<Stage, Timer> stages = new java.util.EnumMap<>(Stage.class);

    public DispatchMetrics(MeterRegistry registry) {
        this.registry = registry;
        for (Stage stage : Stage.values()) {
            stages.put(stage, Timer.builder("svc.dispatch.stage").description("time spent in one stage of a dispatch")
                    .tag("stage", stage.label()).serviceLevelObjectives(RequestTelemetry.Buckets.LATENCY)
                    .register(registry));
        }
    }

    /** Times {@code work} as {@code stage}, whether it returns or throws. */
    <T> T time(Stage stage, java.util.function.Supplier<T> work) {
        long t0 = System.nanoTime();
        try {
            return work.get();
        } finally {
            stages.get(stage).record(System.nanoTime() - t0, TimeUnit.NANOSECONDS);
        }
    }

    /** Reports {@code validator}'s compiled-schema cache. */
    void cache(ParamsValidator validator) {
        validator.meterInto(registry);
    }

    void stage(Stage stage, long nanos) {
        stages.get(stage).record(nanos, TimeUnit.NANOSECONDS);
    }

    void call(String connectorId, String opClass, String status, long durationMs) {
        Timer.builder("svc.dispatch.calls").description("dispatches by connector, operation class and outcome")
                .tag("connector", connectorId).tag("op_class", opClass).tag("status", status)
                .serviceLevelObjectives(RequestTelemetry.Buckets.LATENCY).register(registry)
                .record(durationMs, TimeUnit.MILLISECONDS);
    }
}
