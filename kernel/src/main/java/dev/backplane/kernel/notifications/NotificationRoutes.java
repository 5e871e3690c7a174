package dev.backplane.kernel.notifications;

import dev.backplane.kernel.http.ApiRoutes;
import dev.backplane.kernel.http.Json;
import dev.backplane.kernel.identity.Role;

/**
 * REST of approval notifications: the acting tenant's settings. Reading them needs tenant_admin too: a chat
 * webhook's URL (Slack's, Teams') carries its token.
 */
public record NotificationRoutes(ApprovalNotifications notifications) {

    static final String SETTINGS = "/api/v1/tenants/current/approval-notifications";

    public void register(ApiRoutes api) {
        api.get(SETTINGS, Role.TENANT_ADMIN, (req, res, c) -> Json.ok(res,
                        notifications.settings(c.tenantId()).view()))
                .put(SETTINGS, Role.TENANT_ADMIN, (req, res, c) -> Json.ok(res, notifications.set(c.tenantId(),
                        Json.read(req, SettingsChange.class), c.sub()).view()))
                .delete(SETTINGS, Role.TENANT_ADMIN, (req, res, c) -> Json.ok(res,
                        notifications.clear(c.tenantId()).view()));
    }
}
