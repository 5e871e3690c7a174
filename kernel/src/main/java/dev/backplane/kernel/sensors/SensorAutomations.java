package dev.backplane.kernel.sensors;

import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.scheduler.Automation;
import dev.backplane.kernel.scheduler.AutomationSource;
import java.sql.Timestamp;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Sensors in {@code svc automation list}: kind {@code sensor}, its name and cadence, the read it runs,
 * and its latest evaluation (when, and the state it gave).
 */
public final class SensorAutomations implements AutomationSource {

    private final Jdbc jdbc;

    public SensorAutomations(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public List<Automation> automations(UUID tenant, int limit) {
        return jdbc.query("""
                SELECT id, name, cadence_kind, interval_seconds, cron, time_zone, status, connector_id, op_id, target,
                       last_evaluated_at, last_state
                  FROM sensors WHERE tenant_id = ? ORDER BY created_at, id LIMIT ?""", rs -> {
            String cadence = rs.getString(3).equals("interval") ? "every " + rs.getInt(4) + " s"
                    : "cron " + rs.getString(5) + " (" + rs.getString(6) + ")";
            Optional<Timestamp> last = Optional.ofNullable(rs.getTimestamp(11));
            return new Automation("sensor", rs.getObject(1, UUID.class).toString(), rs.getString(2) + ", " + cadence,
                    rs.getString(7), "read:" + rs.getString(8) + " " + rs.getString(9) + " on " + rs.getString(10),
                    last.map(Timestamp::toInstant), Optional.empty(),
                    last.isPresent() ? Optional.ofNullable(rs.getString(12)) : Optional.empty());
        }, tenant, limit);
    }
}
