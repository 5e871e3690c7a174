package dev.backplane.kernel.dashboards;

import dev.backplane.kernel.audit.AuditLog;
import dev.backplane.kernel.tenancy.MailRecipientPolicy;
import dev.backplane.kernel.tenancy.TenantService;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Delivers a notification claimed by {@link DashboardNotifier}, after its transaction committed: each recipient is
 * checked against the tenant's mail-recipient policy, the mail goes out, and every refusal, sent mail and failed send
 * is logged and audited; a failed mail that started no investigator gives its claim back.
 */
final class NotificationSender {

    private static final System.Logger LOG = System.getLogger(DashboardNotifier.class.getName());

    private final DashboardStore store;
    private final TenantService tenants;
    private final AuditLog audit;
    private final Mailer mailer;
    private final Duration suppression;

    NotificationSender(DashboardStore store, TenantService tenants, AuditLog audit, Mailer mailer, Duration suppression) {
        this.store = store;
        this.tenants = tenants;
        this.audit = audit;
        this.mailer = mailer;
        this.suppression = suppression;
    }

    /** Sends the claimed notification to each recipient the tenant's policy permits, auditing each outcome. */
    void send(DashboardNotifier.Claimed n) {
        n.investigatorRun().ifPresent(h -> LOG.log(Level.INFO, "dashboard " + n.dashboard() + " (tenant " + n.tenant()
                + ") is " + n.to() + "; investigator run " + h + " enqueued"));
        if (n.recipients().isEmpty()) {
            return;
        }
        MailRecipientPolicy policy = tenants.mailRecipientPolicy(n.tenant());
        List<String> allowed = new ArrayList<>();
        for (String r : n.recipients()) {
            if (policy.permits(r)) {
                allowed.add(r);
            } else {
                LOG.log(Level.WARNING, "dashboard " + n.dashboard() + " (tenant " + n.tenant() + "): recipient " + r
                        + " refused by the tenant's mail-recipient policy (" + policy.mode() + "); no mail to it");
                audit(n, "denied", Optional.of("recipient_not_allowed"), Map.of("recipient", r, "policy", policy.mode()));
            }
        }
        if (allowed.isEmpty()) {
            return;
        }
        try {
            mailer.send(allowed, NotificationMail.subject(n), NotificationMail.body(n, suppression));
            audit(n, "ok", Optional.empty(), Map.of("recipients", allowed));
        } catch (Mailer.MailException e) {
            LOG.log(Level.ERROR, "dashboard " + n.dashboard() + " (tenant " + n.tenant() + "): notification mail failed: "
                    + e.getMessage());
            audit(n, "error", Optional.of("mail_failed"), Map.of("recipients", allowed, "reason", e.getMessage()));
            unclaim(n);
        }
    }

    /**
     * A notification whose mail failed (and that started no investigator) did not notify: its claim is
     * undone, so the suppression window does not silence the next change (unless another claim came since).
     */
    private void unclaim(DashboardNotifier.Claimed n) {
        if (n.investigatorRun().isPresent()) {
            return;
        }
        try {
            store.unclaim(n.dashboard(), n.previouslyNotified(), n.claimedAt());
        } catch (RuntimeException e) {
            LOG.log(Level.ERROR, "dashboard " + n.dashboard() + ": the failed notification's claim stays: " + e.getMessage());
        }
    }

    private void audit(DashboardNotifier.Claimed n, String status, Optional<String> code, Map<String, Object> more) {
        Map<String, Object> extras = new LinkedHashMap<>(more);
        extras.put("dashboard_id", n.dashboard().toString());
        extras.put("rollup_from", n.from());
        extras.put("rollup_to", n.to());
        try {
            audit.record(DashboardNotifier.entry(n.tenant(), n.dashboard()), status, code, Optional.empty(), extras);
        } catch (RuntimeException e) {
            LOG.log(Level.ERROR, "dashboard " + n.dashboard() + ": the audit row of a notification (" + status
                    + ") could not be written: " + e.getMessage());
        }
    }
}
