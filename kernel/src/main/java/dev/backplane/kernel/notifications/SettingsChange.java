package dev.backplane.kernel.notifications;

import dev.backplane.kernel.credentials.SecretRefs;
import dev.backplane.kernel.dashboards.Recipients;
import dev.backplane.kernel.egress.SsrfGuard;
import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.errors.DomainException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * The body of {@code PUT .../approval-notifications}: the whole settings, a field left out taking its default
 * (enabled, no mail, no webhook, format json, every event). Checked before anything is stored: each recipient a
 * plain address, the webhook URL an http(s) URL whose host the SSRF guard admits (as a target's host), the secret_ref
 * inside the tenant's scope, and at least one channel.
 */
public record SettingsChange(Boolean enabled, String mailRecipients, String webhookUrl, String webhookFormat,
                             String webhookSecretRef, List<String> events) {

    static final int MAX_RECIPIENTS = 50;
    static final int MAX_RECIPIENT_CHARS = 4096;
    static final int MAX_URL_CHARS = 2048;

    /** The settings this change sets, checked; throws {@code invalid_request} (with its field) or {@code ssrf_refused}. */
    NotificationSettings validate(UUID tenant, SsrfGuard ssrf, SecretRefs.Backend backend) {
        List<String> recipients = recipients(mailRecipients == null ? "" : mailRecipients);
        Optional<String> url = Optional.ofNullable(webhookUrl).map(String::strip).filter(u -> !u.isEmpty());
        url.ifPresent(u -> checkUrl(u, ssrf));
        String format = webhookFormat == null ? "json" : webhookFormat.strip().toLowerCase(Locale.ROOT);
        if (!NotificationSettings.FORMATS.contains(format)) {
            throw invalid("webhook_format must be one of " + NotificationSettings.FORMATS, "webhook_format");
        }
        Optional<String> secretRef = Optional.ofNullable(webhookSecretRef).map(String::strip).filter(r -> !r.isEmpty());
        if (secretRef.isPresent() && url.isEmpty()) {
            throw invalid("webhook_secret_ref signs the webhook: it needs webhook_url", "webhook_secret_ref");
        }
        if (url.isPresent() && format.equals("json") && secretRef.isEmpty()) {
            throw invalid("a json webhook is signed (Standard Webhooks): give webhook_secret_ref, the secret_ref of "
                    + "a secret whose field 'secret' holds the signing key (whsec_<base64>)", "webhook_secret_ref");
        }
        Optional<String> ref = secretRef.map(r -> SecretRefs.forRegistration(backend, tenant, "approval-webhook",
                Optional.of(r)));
        if (recipients.isEmpty() && url.isEmpty()) {
            throw invalid("name mail_recipients or webhook_url (or DELETE the settings to send nothing)",
                    "mail_recipients");
        }
        return new NotificationSettings(true, enabled == null || enabled, recipients, url, format, ref, eventGroups(),
                Optional.empty(), Optional.empty());
    }

    private static List<String> recipients(String text) {
        if (text.length() > MAX_RECIPIENT_CHARS) {
            throw invalid("mail_recipients is longer than " + MAX_RECIPIENT_CHARS + " characters", "mail_recipients");
        }
        Set<String> out = new LinkedHashSet<>();
        for (String raw : text.split(",", -1)) {
            String a = raw.strip().toLowerCase(Locale.ROOT);
            if (a.isEmpty()) {
                continue;
            }
            if (!Recipients.plain(a)) {
                throw invalid("mail_recipients entry '" + raw.strip() + "' is not a plain address local@domain",
                        "mail_recipients");
            }
            out.add(a);
        }
        if (out.size() > MAX_RECIPIENTS) {
            throw invalid("mail_recipients names more than " + MAX_RECIPIENTS + " addresses", "mail_recipients");
        }
        return new ArrayList<>(out);
    }

    private static void checkUrl(String url, SsrfGuard ssrf) {
        if (url.length() > MAX_URL_CHARS) {
            throw invalid("webhook_url is longer than " + MAX_URL_CHARS + " characters", "webhook_url");
        }
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw invalid("webhook_url is not a URL: " + e.getReason(), "webhook_url");
        }
        String scheme = Optional.ofNullable(uri.getScheme()).orElse("").toLowerCase(Locale.ROOT);
        if (!scheme.equals("https") && !scheme.equals("http") || uri.getHost() == null || uri.getHost().isBlank()) {
            throw invalid("webhook_url must be an http or https URL with a host", "webhook_url");
        }
        if (uri.getRawUserInfo() != null || uri.getRawFragment() != null) {
            throw invalid("webhook_url may carry neither user info nor a fragment", "webhook_url");
        }
        try {
            ssrf.check(uri.getHost());
        } catch (SsrfGuard.Refused refused) {
            throw CommonErrors.SSRF_REFUSED.error(refused.getMessage(), Map.of("field", "webhook_url",
                    "allowlist_setting", "SVC_TARGET_SSRF_ALLOWLIST"));
        }
    }

    private List<String> eventGroups() {
        Set<String> out = new LinkedHashSet<>();
        out.add("parked");
        for (String e : events == null ? NotificationSettings.EVENT_GROUPS : events) {
            String name = e == null ? "" : e.strip().toLowerCase(Locale.ROOT);
            if (!NotificationSettings.EVENT_GROUPS.contains(name)) {
                throw invalid("events may name " + NotificationSettings.EVENT_GROUPS + " (parked is always sent), not '"
                        + e + "'", "events");
            }
            out.add(name);
        }
        return NotificationSettings.EVENT_GROUPS.stream().filter(out::contains).toList();
    }

    private static DomainException invalid(String message, String field) {
        return CommonErrors.INVALID_REQUEST.error(message, Map.of("field", field));
    }
}
