package dev.backplane.kernel.sensors;

import com.github.kagkarlsson.scheduler.task.schedule.CronSchedule;
import com.github.kagkarlsson.scheduler.task.schedule.CronStyle;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.util.Times;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
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
        Instant first = next(schedule, now);
        Instant second = first.equals(CronSchedule.NEVER) ? CronSchedule.NEVER : next(schedule, first);
        if (second.equals(CronSchedule.NEVER)) {
            throw SensorErrors.INVALID_SENSOR.error("cron '" + cron + "' never fires (or fires once)", Map.of("field", "cron"));
        }
        Instant at = first;
        for (int i = 0; i < 500; i++) { // the shortest gap over the next firings (0,2 * * * * * hides in one minute)
            Instant following = next(schedule, at);
            if (following.equals(CronSchedule.NEVER)) {
                break;
            }
            if (Duration.between(at, following).toSeconds() < MIN_INTERVAL_SECONDS) {
                throw SensorErrors.INVALID_SENSOR.error("cron '" + cron + "' fires more often than every "
                        + MIN_INTERVAL_SECONDS + " s", Map.of("field", "cron"));
            }
            at = following;
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
        return next(schedule(cron, zone), from);
    }

    static CronSchedule schedule(String cron, String zone) {
        if (cron.isBlank() || cron.length() > 200) {
            throw notCron(cron, "empty or longer than 200 characters");
        }
        ZoneId zoneId = Times.zone(zone, SensorErrors.INVALID_SENSOR);
        try {
            CronSchedule s = new CronSchedule(cron.trim(), zoneId, CronStyle.SPRING);
            if (s.isDisabled()) {
                throw notCron(cron, "'-' disables a schedule; pause the sensor instead");
            }
            return s;
        } catch (DomainException e) {
            throw e;
        } catch (RuntimeException e) {
            throw notCron(cron, e.getMessage());
        }
    }

    /** The first firing strictly after {@code after}, or {@code NEVER}. */
    static Instant next(CronSchedule schedule, Instant after) {
        try {
            return schedule.getInitialExecutionTime(after);
        } catch (RuntimeException e) {
            throw notCron(schedule.getPattern(), e.getMessage());
        }
    }

    private static DomainException notCron(String cron, String why) {
        return SensorErrors.INVALID_SENSOR.error("cron '" + cron + "' is not a six-field cron expression (second minute "
                + "hour day-of-month month day-of-week): " + why, Map.of("field", "cron"));
    }
}
