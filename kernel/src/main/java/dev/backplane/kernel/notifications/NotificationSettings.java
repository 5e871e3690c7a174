package dev.backplane.kernel.notifications;

import dev.backplane.kernel.governance.ApprovalEvents;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * A tenant's approval-notification settings: whether they are on, whom mail goes to, the webhook (its URL, body
 * format and the secret_ref of its signing secret) and which events are sent ({@code parked} always; {@code decided}
 * — approved, rejected, withdrawn — and {@code expired} on by default). None stored: nothing is sent.
 *
 * @param configured false while none is stored (the other fields are then the defaults)
 */
public record NotificationSettings(boolean configured, boolean enabled, List<String> mailRecipients,
                                   Optional<String> webhookUrl, String webhookFormat, Optional<String> webhookSecretRef,
                                   List<String> events, Optional<Instant> updatedAt, Optional<String> updatedBy) {

    public static final List<String> FORMATS = List.of("json", "slack", "teams");
    /** The event groups a tenant may pick; {@code parked} is always sent. */
    public static final List<String> EVENT_GROUPS = List.of("parked", "decided", "expired");

    public static final NotificationSettings UNSET = new NotificationSettings(false, false, List.of(), Optional.empty(),
            "json", Optional.empty(), EVENT_GROUPS, Optional.empty(), Optional.empty());

    public NotificationSettings {
        mailRecipients = List.copyOf(mailRecipients);
        events = List.copyOf(events);
    }

    /**
     * The settings as REST shows them.
     *
     * @param mailRecipients the addresses comma-separated ({@code ""} for none)
     */
    public record View(boolean configured, boolean enabled, String mailRecipients, Optional<String> webhookUrl,
                       String webhookFormat, Optional<String> webhookSecretRef, List<String> events,
                       Optional<Instant> updatedAt, Optional<String> updatedBy) {
    }

    public View view() {
        return new View(configured, enabled, String.join(",", mailRecipients), webhookUrl, webhookFormat,
                webhookSecretRef, events, updatedAt, updatedBy);
    }

    /** Whether an approval's {@code event} is sent at all (on, and its group picked). */
    public boolean wants(String event) {
        if (!configured || !enabled) {
            return false;
        }
        return switch (event) {
            case ApprovalEvents.PARKED -> true;
            case ApprovalEvents.APPROVED, ApprovalEvents.REJECTED, ApprovalEvents.WITHDRAWN -> events.contains("decided");
            case ApprovalEvents.EXPIRED -> events.contains("expired");
            default -> false;
        };
    }

    /** The channels an event goes out on: mail when recipients are named, webhook when a URL is set. */
    public List<String> channels() {
        List<String> out = new java.util.ArrayList<>(2);
        if (!mailRecipients.isEmpty()) {
            out.add(Outbox.MAIL);
        }
        if (webhookUrl.isPresent()) {
            out.add(Outbox.WEBHOOK);
        }
        return out;
    }
}
