package dev.backplane.kernel.notifications;

import dev.backplane.kernel.audit.AuditClass;
import dev.backplane.kernel.audit.AuditLog;
import dev.backplane.kernel.credentials.CredentialService;
import dev.backplane.kernel.dashboards.Mailer;
import dev.backplane.kernel.egress.EgressProxy;
import dev.backplane.kernel.egress.SsrfGuard;
import dev.backplane.kernel.governance.ApprovalEvents;
import dev.backplane.kernel.governance.Approvals.Approval;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.persistence.PeriodicJob;
import dev.backplane.kernel.tenancy.MailRecipientPolicy;
import dev.backplane.kernel.tenancy.TenantService;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.lang.System.Logger.Level;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import javax.net.ssl.SSLContext;

/**
 * Approval notifications: the tenant's settings, the outbox rows an approval's transitions write in their own
 * transaction ({@link ApprovalEvents}), and their delivery. The delivery job claims due rows (safe with several
 * replicas: {@code FOR UPDATE SKIP LOCKED} and a lease), sends each on a virtual thread as mail or webhook, marks it
 * delivered once, retries a failure with a capped exponential backoff and gives up after {@code max-attempts},
 * keeping the row as failed. Every outcome is audited ({@code svc.approval.notify}, principal
 * {@code svc-notifications}).
 */
public final class ApprovalNotifications implements ApprovalEvents {

    private static final System.Logger LOG = System.getLogger(ApprovalNotifications.class.getName());
    static final String PRINCIPAL = "svc-notifications";
    static final String AUDIT_OP = "svc.approval.notify";
    /** The field of the webhook's secret that holds the signing key. */
    static final String SECRET_FIELD = "secret";
    private static final int BATCH = 32;

    /**
     * @param retry the wait between attempts
     * @param maxAttempts the attempts a row gets before it is kept as failed
     * @param webhookTimeout connect and answer timeout of a webhook POST
     * @param lease how long a claimed row is held: longer than a send can take, so only a replica that died while
     *        sending gives its rows to another, which sends them again after the lease
     */
    public record Delivery(Backoff retry, int maxAttempts, Duration webhookTimeout, Duration lease) {

        /** The lease from the timeouts: three times the longer of a webhook POST's and an SMTP step's, plus 30 s. */
        public static Delivery of(Duration retryInitial, Duration retryMax, int maxAttempts, Duration webhookTimeout,
                                  Duration mailTimeout) {
            Duration longer = webhookTimeout.compareTo(mailTimeout) > 0 ? webhookTimeout : mailTimeout;
            return new Delivery(new Backoff(retryInitial, retryMax.compareTo(retryInitial) < 0 ? retryInitial : retryMax),
                    maxAttempts, webhookTimeout, longer.multipliedBy(3).plusSeconds(30));
        }
    }

    private final NotificationStore store;
    private final TenantService tenants;
    private final AuditLog audit;
    private final Mailer mailer;
    private final CredentialService credentials;
    private final SsrfGuard ssrf;
    private final WebhookSender webhooks;
    private final Supplier<String> publicUrl;
    private final Delivery delivery;

    public ApprovalNotifications(Jdbc jdbc, TenantService tenants, AuditLog audit, Mailer mailer,
                                 CredentialService credentials, SsrfGuard ssrf, EgressProxy egress, SSLContext tls,
                                 Supplier<String> publicUrl, Delivery delivery) {
        this.store = new NotificationStore(jdbc);
        this.tenants = tenants;
        this.audit = audit;
        this.mailer = mailer;
        this.credentials = credentials;
        this.ssrf = ssrf;
        this.webhooks = new WebhookSender(egress, tls, delivery.webhookTimeout());
        this.publicUrl = publicUrl;
        this.delivery = delivery;
    }

    /** The tenant's settings; {@link NotificationSettings#UNSET} (nothing is sent) when none are stored. */
    public NotificationSettings settings(UUID tenant) {
        return store.settings(tenant).orElse(NotificationSettings.UNSET);
    }

    /** Replaces the tenant's settings with {@code change}, checked first ({@code invalid_request}, {@code ssrf_refused}). */
    public NotificationSettings set(UUID tenant, SettingsChange change, String actor) {
        NotificationSettings s = change.validate(tenant, ssrf, credentials.backend());
        tenants.ensureKnown(Optional.of(tenant));
        return store.put(tenant, s, actor);
    }

    /** Removes the tenant's settings: nothing is sent any more (rows still waiting are cancelled when due). */
    public NotificationSettings clear(UUID tenant) {
        store.clear(tenant);
        return NotificationSettings.UNSET;
    }

    @Override
    public void recorded(Connection c, UUID tenant, Approval a, String event) throws SQLException {
        Optional<NotificationSettings> s = NotificationStore.settings(c, tenant);
        if (s.isEmpty() || !s.get().wants(event)) {
            return;
        }
        Map<String, Object> message = ApprovalMessages.snapshot(tenant, a, event);
        for (String channel : s.get().channels()) {
            NotificationStore.enqueue(c, tenant, a.id(), event, channel, message);
        }
    }

    /** The delivery job: once a second, across replicas. */
    public List<PeriodicJob> periodicJobs() {
        return List.of(new PeriodicJob("approval-notifications", Duration.ofSeconds(1), this::deliverDue));
    }

    /** {@code svc_approval_notifications_pending}: outbox rows not delivered, failed or cancelled yet. */
    public void meterInto(MeterRegistry metrics) {
        Gauge.builder("svc.approval.notifications.pending", () -> {
            try {
                return store.pending();
            } catch (RuntimeException e) {
                return Double.NaN;
            }
        }).description("approval notifications waiting in the outbox to be delivered (retries included)")
                .register(metrics);
    }

    /** Delivers the rows that are due; returns how many were tried. */
    public int deliverDue() {
        String base;
        try {
            base = publicUrl.get();
        } catch (IllegalStateException notListening) {
            return 0; // the kernel has no address yet (its port is picked at start): a link would name none
        }
        List<Outbox> due = store.claimDue(BATCH, delivery.lease());
        if (due.isEmpty()) {
            return 0;
        }
        try (ExecutorService sends = Executors.newVirtualThreadPerTaskExecutor()) {
            for (Outbox o : due) {
                sends.submit(() -> deliver(o, base));
            }
        }
        return due.size();
    }

    private void deliver(Outbox o, String base) {
        try {
            NotificationSettings s = settings(o.tenantId());
            if (!s.configured() || !s.enabled()) {
                cancel(o, "approval notifications are off for the tenant");
                return;
            }
            String link = ApprovalMessages.link(base, o.approvalId());
            if (o.channel().equals(Outbox.MAIL)) {
                mail(o, s, link);
            } else {
                webhook(o, s, link);
            }
        } catch (RuntimeException e) {
            LOG.log(Level.ERROR, "approval notification " + o.id() + " failed unexpectedly", e);
            retryOrGiveUp(o, "unexpected failure: " + e.getClass().getSimpleName(), Map.of());
        }
    }

    private void mail(Outbox o, NotificationSettings s, String link) {
        if (s.mailRecipients().isEmpty()) {
            cancel(o, "no mail recipients are set any more");
            return;
        }
        if (!mailer.enabled()) {
            giveUp(o, "mail_not_configured", "mail is not configured (setting mail.smtp-host is empty)", Map.of());
            return;
        }
        MailRecipientPolicy policy = tenants.mailRecipientPolicy(o.tenantId());
        List<String> allowed = new ArrayList<>();
        for (String r : s.mailRecipients()) {
            if (policy.permits(r)) {
                allowed.add(r);
            } else if (o.attempts() == 1) { // a refusal is audited once, not at every retry of the others
                LOG.log(Level.WARNING, "approval notification " + o.id() + " (tenant " + o.tenantId() + "): recipient "
                        + r + " refused by the tenant's mail-recipient policy (" + policy.mode() + "); no mail to it");
                audit(o, "denied", Optional.of("recipient_not_allowed"), Map.of("recipient", r, "policy", policy.mode()));
            }
        }
        if (allowed.isEmpty()) {
            String why = "no recipient is allowed by the tenant's mail-recipient policy (" + policy.mode() + ")";
            store.end(o.id(), "failed", why);
            if (o.attempts() > 1) { // refused since the first attempt (the policy changed): that is audited here
                audit(o, "denied", Optional.of("recipient_not_allowed"), Map.of("reason", why, "policy", policy.mode()));
            }
            return;
        }
        try {
            mailer.send(allowed, ApprovalMessages.mailSubject(o.message()), ApprovalMessages.mailBody(o.message(), link));
        } catch (Mailer.MailException e) {
            retryOrGiveUp(o, e.getMessage(), Map.of("recipients", allowed));
            return;
        }
        store.delivered(o.id());
        audit(o, "ok", Optional.empty(), Map.of("recipients", allowed));
    }

    private void webhook(Outbox o, NotificationSettings s, String link) {
        if (s.webhookUrl().isEmpty()) {
            cancel(o, "no webhook is set any more");
            return;
        }
        String url = s.webhookUrl().get();
        Map<String, Object> receiver = Map.of("receiver", WebhookSender.describe(URI.create(url)),
                "format", s.webhookFormat());
        Optional<byte[]> secret;
        try {
            secret = s.webhookSecretRef().map(ref -> secret(o.tenantId(), ref));
        } catch (RuntimeException e) {
            retryOrGiveUp(o, "the webhook's signing secret could not be read through webhook_secret_ref: "
                    + e.getMessage(), receiver);
            return;
        }
        Instant now = Instant.now();
        byte[] body = ApprovalMessages.webhookBody(s.webhookFormat(), o.message(), link, now);
        int status;
        try {
            status = webhooks.send(url, o.id().toString(), body, secret, now);
        } catch (WebhookSender.Failure f) {
            retryOrGiveUp(o, f.getMessage(), receiver);
            return;
        }
        store.delivered(o.id());
        Map<String, Object> extras = new LinkedHashMap<>(receiver);
        extras.put("http_status", status);
        extras.put("signed", secret.isPresent());
        audit(o, "ok", Optional.empty(), extras);
    }

    private byte[] secret(UUID tenant, String ref) {
        var credential = credentials.resolve(Optional.of(tenant), ref);
        if (!credential.has(SECRET_FIELD)) {
            throw new IllegalStateException("the secret at " + ref + " has no field '" + SECRET_FIELD + "'");
        }
        return credential.field(SECRET_FIELD).getBytes(StandardCharsets.UTF_8);
    }

    private void retryOrGiveUp(Outbox o, String error, Map<String, Object> more) {
        if (o.attempts() >= delivery.maxAttempts()) {
            giveUp(o, "notification_failed", error, more);
            return;
        }
        Instant at = Instant.now().plus(delivery.retry().after(o.attempts()));
        store.retryAt(o.id(), at, error);
        Map<String, Object> extras = new LinkedHashMap<>(more);
        extras.put("reason", error);
        extras.put("retry_at", at.toString());
        audit(o, "error", Optional.of("delivery_failed"), extras);
    }

    private void giveUp(Outbox o, String code, String error, Map<String, Object> more) {
        store.end(o.id(), "failed", error);
        LOG.log(Level.WARNING, "approval notification " + o.id() + " (tenant " + o.tenantId() + ", " + o.channel()
                + ") given up after " + o.attempts() + " attempt(s): " + error);
        Map<String, Object> extras = new LinkedHashMap<>(more);
        extras.put("reason", error);
        audit(o, "error", Optional.of(code), extras);
    }

    private void cancel(Outbox o, String why) {
        store.end(o.id(), "cancelled", why);
        audit(o, "denied", Optional.of("notifications_off"), Map.of("reason", why));
    }

    private void audit(Outbox o, String status, Optional<String> code, Map<String, Object> more) {
        Map<String, Object> extras = new LinkedHashMap<>(more);
        extras.put("approval_request_id", o.approvalId().toString());
        extras.put("notification_id", o.id().toString());
        extras.put("event", o.event());
        extras.put("channel", o.channel());
        extras.put("attempt", o.attempts());
        Map<String, Object> m = o.message();
        AuditLog.Entry entry = AuditLog.Entry.byService(o.tenantId(), PRINCIPAL, AuditClass.OTHER, AUDIT_OP)
                .connector(Optional.ofNullable((String) m.get("connector_id")))
                .target(Optional.ofNullable((String) m.get("target")))
                .workRef(Optional.ofNullable((String) m.get("work_ref")));
        try {
            audit.record(entry, status, code, Optional.of(o.approvalId()), extras);
        } catch (RuntimeException e) {
            LOG.log(Level.ERROR, "approval notification " + o.id() + ": its audit row (" + status
                    + ") could not be written: " + e.getMessage());
        }
    }
}
