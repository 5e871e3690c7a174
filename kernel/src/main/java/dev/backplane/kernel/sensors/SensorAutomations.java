package dev.backplane.kernel.sensors;

import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.scheduler.Automation;
import dev.backplane.kernel.scheduler.AutomationSource;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Sensors in {@code svc automation list}: kind {@code sensor}, its name and cadence, the read it runs,
 * and its latest evaluation (when, and the state it gave).
 */
public final class SensorAutomations implements AutomationSource {

    private final SensorStore store;

    public SensorAutomations(Jdbc jdbc) {
        this.store = new SensorStore(jdbc);
    }

    @Override
    public List<Automation> automations(UUID tenant, int limit) {
        return store.listed(tenant, limit).stream().map(s -> {
            String cadence = s.cadenceKind().equals("interval") ? "every " + s.interval() + " s"
                    : "cron " + s.cron() + " (" + s.zone() + ")";
            return new Automation("sensor", s.id().toString(), s.name() + ", " + cadence, s.status(),
                    "read:" + s.connectorId() + " " + s.opId() + " on " + s.target(), s.lastEvaluatedAt(),
                    Optional.empty(), s.lastEvaluatedAt().isPresent() ? s.lastState() : Optional.empty());
        }).toList();
    }
}
