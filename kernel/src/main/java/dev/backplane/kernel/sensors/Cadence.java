package dev.backplane.kernel.sensors;

import com.github.kagkarlsson.scheduler.task.schedule.CronSchedule;
import dev.backplane.kernel.util.CronSchedules;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * How often a sensor runs, checked: an interval of 5..86,400 s, or a six-field cron no more often than
 * that; and when it runs next — its first run, and the run after a claimed due time.
 */
record Cadence(String kind, Optional<Integer> interval, Optional<String> cron, Optional<String> zone, Instant first) {

    static final int MIN_INTERVAL_SECONDS = 5;
    static final int MAX_INTERVAL_SECONDS = 86_400;

    /** Checks a cadence given at {@code now}: exactly one of interval and cron, the zone only with a cron. */
    static Cadence of(Integer interval, String cron, String zone, Instant now) {
        if ((interval == null) == (cron == null)) {
            throw SensorErrors.INVALID_SENSOR.error("give exactly one cadence: interval_seconds (" + MIN_INTERVAL_SECONDS
                    + ".." + MAX_INTERVAL_SECONDS + ") or cron (six fields with seconds)", Map.of("field", "interval_seconds"));
        }
        if (interval != null) {
            if (zone != null) {
                throw SensorErrors.INVALID_SENSOR.error("time_zone belongs to a cron cadence", Map.of("field", "time_zone"));
            }
            if (interval < MIN_INTERVAL_SECONDS || interval > MAX_INTERVAL_SECONDS) {
                throw SensorErrors.INVALID_SENSOR.error("interval_seconds must be " + MIN_INTERVAL_SECONDS + ".."
                        + MAX_INTERVAL_SECONDS + ", got " + interval, Map.of("field", "interval_seconds"));
            }
            return new Cadence("interval", Optional.of(interval), Optional.empty(), Optional.empty(), now);
        }
        String z = zone == null ? "UTC" : zone;
        CronSchedule schedule = schedule(cron, z);
        Instant first = CronSchedules.next(schedule, now, SensorErrors.INVALID_SENSOR);
        // the shortest gap over the next firings (0,2 * * * * * hides in one minute)
        Duration shortest = first.equals(CronSchedule.NEVER) ? null
                : CronSchedules.shortestGap(schedule, first, 500, SensorErrors.INVALID_SENSOR);
        if (shortest == null) {
            throw SensorErrors.INVALID_SENSOR.error("cron '" + cron + "' never fires (or fires once)", Map.of("field", "cron"));
        }
        if (shortest.toSeconds() < MIN_INTERVAL_SECONDS) {
            throw SensorErrors.INVALID_SENSOR.error("cron '" + cron + "' fires more often than every "
                    + MIN_INTERVAL_SECONDS + " s", Map.of("field", "cron"));
        }
        return new Cadence("cron", Optional.empty(), Optional.of(cron.trim()), Optional.of(z), first);
    }

    /**
     * The run after a claimed due time: the next period after the due time, or after {@code now} when it is
     * late by more than one (so a sensor late by several periods runs once); a run claimed ahead of its due
     * time counts from its due time. A stored cron that no longer computes is {@code invalid_sensor}.
     */
    static Instant nextAfter(Integer interval, String cron, String zone, Instant due, Instant now) {
        Instant from = due.isAfter(now) ? due : now;
        if (interval != null) {
            Instant next = due.plusSeconds(interval);
            return next.isAfter(from) ? next : from.plusSeconds(interval);
        }
        return CronSchedules.next(schedule(cron, zone), from, SensorErrors.INVALID_SENSOR);
    }

    static CronSchedule schedule(String cron, String zone) {
        return CronSchedules.parse(cron, zone, SensorErrors.INVALID_SENSOR, "sensor");
    }
}
