package dev.backplane.kernel.dashboards;

import java.time.Duration;
import java.time.Instant;
import java.util.Locale;

/** The text of a dashboard's notification mail: its subject and its body with the failing sensors' evidence. */
final class NotificationMail {

    private NotificationMail() {
    }

    static String subject(DashboardNotifier.Claimed n) {
        return "[svc] dashboard " + n.name() + " is " + n.to().toUpperCase(Locale.ROOT) + " (was " + n.from() + ")";
    }

    static String body(DashboardNotifier.Claimed n, Duration suppression) {
        StringBuilder b = new StringBuilder();
        b.append("Dashboard ").append(n.name()).append(" (").append(n.dashboard()).append(") of tenant ")
                .append(n.tenant()).append(" went from ").append(n.from()).append(" to ").append(n.to()).append(" at ")
                .append(Instant.now()).append(".\n\n");
        if (n.evidence().isEmpty()) {
            b.append("No member sensor is failing: the dashboard has no sensors, or none has answered yet.\n");
        } else {
            b.append("Failing sensors:\n");
            for (DashboardNotifier.Evidence e : n.evidence()) {
                b.append("  ").append(e.name()).append(": ").append(e.state()).append(" - ").append(e.detail())
                        .append(e.at().map(at -> " (" + at + ")").orElse("")).append('\n');
            }
        }
        n.investigatorRun().ifPresent(h -> b.append("\nAn investigator agent run was started: svc agent run-status ")
                .append(h).append('\n'));
        b.append("\nFurther notifications of this dashboard are suppressed for ").append(suppression.toMinutes())
                .append(" minutes. Details: svc dashboard show ").append(n.dashboard()).append('\n');
        return b.toString();
    }
}
