package dev.backplane.kernel.console;

import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.http.ErrorMapping;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.Role;
import dev.backplane.kernel.notifications.ApprovalNotifications;
import dev.backplane.kernel.notifications.NotificationSettings;
import dev.backplane.kernel.notifications.SettingsChange;
import dev.backplane.kernel.util.JsonMapping;
import io.helidon.http.Method;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code /ui/settings/notifications} (tenant_admin, as its REST route): who is told when a call parks and when its
 * request is decided or expires — mail recipients, an outbound webhook (JSON, Slack or Teams format, signed with the
 * secret a secret_ref names) and which events. Saved and cleared through {@link ApprovalNotifications} as {@code PUT} /
 * {@code DELETE /api/v1/tenants/current/approval-notifications}, with the same governance audit row.
 */
public final class ConsoleNotificationRoutes implements ConsoleRoutes.PageGroupRoutes {

    static final String ROUTE = "/api/v1/tenants/current/approval-notifications";

    private final ApprovalNotifications notifications;
    private ConsoleRoutes console;

    public ConsoleNotificationRoutes(ApprovalNotifications notifications) {
        this.notifications = notifications;
    }

    @Override
    public void register(ConsoleRoutes console, HttpRouting.Builder routing) {
        this.console = console;
        console.page(routing, Method.GET, "/ui/settings/notifications", Role.TENANT_ADMIN, (req, res, s, f) ->
                show(res, s, Status.OK_200, notifications.settings(s.caller().tenantId()).view(), null, null));
        console.page(routing, Method.POST, "/ui/settings/notifications", Role.TENANT_ADMIN, this::save);
        console.page(routing, Method.POST, "/ui/settings/notifications/clear", Role.TENANT_ADMIN, (req, res, s, f) -> {
            Caller c = s.caller();
            NotificationSettings.View cleared = notifications.clear(c.tenantId()).view();
            console.audited(c, "DELETE " + ROUTE, Map.of(), Optional.empty(), 200);
            show(res, s, Status.OK_200, cleared, "Cleared: nobody is notified until settings are saved again.", null);
        });
    }

    private void save(ServerRequest req, ServerResponse res, ConsoleRoutes.Signed s, Map<String, String> f) {
        Caller c = s.caller();
        List<String> events = NotificationSettings.EVENT_GROUPS.stream().filter(e -> e.equals("parked")
                || "true".equals(f.get("event_" + e))).toList();
        SettingsChange change = new SettingsChange("true".equals(f.get("enabled")), f.getOrDefault("mail_recipients", ""),
                f.getOrDefault("webhook_url", ""), f.getOrDefault("webhook_format", "json"),
                blankToNull(f.get("webhook_secret_ref")), events);
        NotificationSettings.View saved;
        try {
            saved = notifications.set(c.tenantId(), change, c.sub()).view();
        } catch (DomainException e) {
            // the form comes back as it was sent, with the refusal beside it
            NotificationSettings.View sent = new NotificationSettings.View(false, change.enabled(),
                    change.mailRecipients(), Optional.ofNullable(blankToNull(change.webhookUrl())),
                    change.webhookFormat(), Optional.ofNullable(change.webhookSecretRef()), events, Optional.empty(),
                    Optional.empty());
            show(res, s, ErrorMapping.status(e.kind()), sent, null, e.code() + ": " + e.getMessage());
            return;
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("enabled", change.enabled());
        body.put("mail_recipients", change.mailRecipients());
        body.put("webhook_url", change.webhookUrl());
        body.put("webhook_format", change.webhookFormat());
        body.put("webhook_secret_ref", change.webhookSecretRef());
        body.put("events", events);
        console.audited(c, "PUT " + ROUTE, Map.of(), Optional.of(JsonMapping.mapper().valueToTree(body)), 200);
        show(res, s, Status.OK_200, saved, "Saved.", null);
    }

    private void show(ServerResponse res, ConsoleRoutes.Signed s, Status status, NotificationSettings.View settings,
                      String notice, String error) {
        console.render(res, status, "notifications.jte", new ConsolePages.NotificationsPage(
                s.frame("Approval notifications"), settings, notice, error));
    }

    private static String blankToNull(String v) {
        return v == null || v.isBlank() ? null : v.strip();
    }
}
