package dev.backplane.kernel.util;

import com.github.kagkarlsson.scheduler.task.schedule.CronSchedule;
import com.github.kagkarlsson.scheduler.task.schedule.CronStyle;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.errors.ErrorCode;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Map;

/**
 * Six-field cron schedules with seconds (Spring style: second minute hour day-of-month month day-of-week) in a time
 * zone, as cron triggers and sensors take them: parsed and checked, the next firing, the shortest gap between
 * firings. A bad expression is the caller's {@code invalid} error naming the field {@code cron}.
 */
public final class CronSchedules {

    /** The longest expression accepted. */
    public static final int MAX_CHARS = 200;

    private CronSchedules() {
    }

    /**
     * {@code cron} in {@code zone}; {@code owner} names what a disabled schedule ({@code -}) should be paused instead
     * ("trigger", "sensor"). The caller checks for a missing expression, with its own message.
     */
    public static CronSchedule parse(String cron, String zone, ErrorCode invalid, String owner) {
        if (cron.isBlank() || cron.length() > MAX_CHARS) {
            throw notCron(cron, "empty or longer than " + MAX_CHARS + " characters", invalid);
        }
        ZoneId zoneId = Times.zone(zone, invalid);
        CronSchedule schedule;
        try {
            schedule = new CronSchedule(cron.trim(), zoneId, CronStyle.SPRING);
        } catch (RuntimeException e) {
            throw notCron(cron, e.getMessage(), invalid);
        }
        if (schedule.isDisabled()) {
            throw notCron(cron, "'-' disables a schedule; pause the " + owner + " instead", invalid);
        }
        return schedule;
    }

    /** The first firing strictly after {@code after}, or {@code NEVER}; a schedule that cannot say is a bad cron. */
    public static Instant next(CronSchedule schedule, Instant after, ErrorCode invalid) {
        try {
            return schedule.getInitialExecutionTime(after);
        } catch (RuntimeException e) {
            throw notCron(schedule.getPattern(), e.getMessage(), invalid);
        }
    }

    /**
     * The shortest gap between consecutive firings from {@code first} on, over up to {@code firings} firings or a
     * year: {@code 0,30 0 * * * *} is 30 s apart once an hour, which its first two firings may not show. Null when it
     * fires at most once.
     */
    public static Duration shortestGap(CronSchedule schedule, Instant first, int firings, ErrorCode invalid) {
        Duration shortest = null;
        Instant at = first;
        Instant horizon = first.plus(Duration.ofDays(366));
        for (int i = 0; i < firings && at.isBefore(horizon) && !at.equals(CronSchedule.NEVER); i++) {
            Instant following = next(schedule, at, invalid);
            if (following.equals(CronSchedule.NEVER)) {
                break;
            }
            Duration gap = Duration.between(at, following);
            shortest = shortest == null || gap.compareTo(shortest) < 0 ? gap : shortest;
            at = following;
        }
        return shortest;
    }

    private static DomainException notCron(String cron, String why, ErrorCode invalid) {
        return invalid.error("cron '" + cron + "' is not a six-field cron expression (second minute hour day-of-month "
                + "month day-of-week): " + why, Map.of("field", "cron"));
    }
}
