package dev.backplane.kernel.console;

import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.http.ErrorMapping;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.Role;
import dev.backplane.kernel.tenancy.TenantService;
import dev.backplane.kernel.tenancy.TenantView;
import dev.backplane.kernel.util.JsonMapping;
import io.helidon.http.Method;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRouting;
import java.util.Map;
import java.util.Optional;

/**
 * {@code /ui/settings} (tenant_admin): the tenant's display name, which every page's header shows, set and cleared as
 * {@code PUT} / {@code DELETE /api/v1/tenants/current/display-name} with the same governance audit row; and the way to
 * the approval notification settings.
 */
public final class ConsoleSettingsRoutes implements ConsoleRoutes.PageGroupRoutes {

    static final String ROUTE = "/api/v1/tenants/current/display-name";

    private final TenantService tenants;
    private ConsoleRoutes console;

    public ConsoleSettingsRoutes(TenantService tenants) {
        this.tenants = tenants;
    }

    @Override
    public void register(ConsoleRoutes console, HttpRouting.Builder routing) {
        this.console = console;
        console.page(routing, Method.GET, "/ui/settings", Role.TENANT_ADMIN, (req, res, s, f) ->
                show(res, s, Status.OK_200, tenants.view(s.caller().tenantId()), null, null));
        console.page(routing, Method.POST, "/ui/settings/name", Role.TENANT_ADMIN, (req, res, s, f) -> {
            Caller c = s.caller();
            String name = f.getOrDefault("display_name", "");
            TenantView renamed;
            try {
                renamed = tenants.setDisplayName(c.tenantId(), Optional.of(name), c.sub());
            } catch (DomainException e) {
                show(res, s, ErrorMapping.status(e.kind()), tenants.view(c.tenantId()), null, e.code() + ": "
                        + e.getMessage());
                return;
            }
            console.tenantRenamed(c.tenantId());
            console.audited(c, "PUT " + ROUTE, Map.of(), Optional.of(JsonMapping.mapper().valueToTree(
                    Map.of("display_name", name))), 200);
            show(res, s, Status.OK_200, renamed, "Renamed: pages name the tenant " + renamed.displayName().orElse("")
                    + " (on every replica within 30 s).", null);
        });
        console.page(routing, Method.POST, "/ui/settings/name/clear", Role.TENANT_ADMIN, (req, res, s, f) -> {
            Caller c = s.caller();
            TenantView cleared = tenants.setDisplayName(c.tenantId(), Optional.empty(), c.sub());
            console.tenantRenamed(c.tenantId());
            console.audited(c, "DELETE " + ROUTE, Map.of(), Optional.empty(), 200);
            show(res, s, Status.OK_200, cleared, "Cleared: pages name the tenant by its id.", null);
        });
    }

    private void show(io.helidon.webserver.http.ServerResponse res, ConsoleRoutes.Signed s, Status status,
                      TenantView tenant, String notice, String error) {
        console.render(res, status, "settings.jte", new ConsolePages.SettingsPage(s.frame("Settings"), tenant, notice,
                error));
    }
}
