package dev.backplane.kernel.dashboards;

import java.time.Duration;
import java.time.Instant;

/**
 * When a changed roll-up notifies: only when it worsened to the dashboard's notify_min_state or beyond and the
 * dashboard has somewhere to notify (mail or an investigator); then it is suppressed when the last notification
 * is younger than the suppression window, and claimed otherwise.
 */
enum NotificationRule {
    /** Nothing to tell: the change is not a notification. */
    QUIET,
    /** A notification within the suppression window: audited as suppressed, not sent. */
    SUPPRESSED,
    /** A notification to claim and send. */
    CLAIM;

    /**
     * @param notify false when the change comes from a deleted member (never mailed)
     * @param lastNotified null when the dashboard never notified
     */
    static NotificationRule decide(boolean notify, String from, String to, String minState, boolean hasTarget,
                                   Instant lastNotified, Instant now, Duration suppression) {
        boolean worsened = Rollup.rank(to) > Rollup.rank(from);
        if (!notify || !worsened || Rollup.rank(to) < Rollup.rank(minState) || !hasTarget) {
            return QUIET;
        }
        if (lastNotified != null && lastNotified.isAfter(now.minus(suppression))) {
            return SUPPRESSED;
        }
        return CLAIM;
    }
}
