package dev.backplane.kernel.tenancy;

import dev.backplane.kernel.http.ApiRoutes;
import dev.backplane.kernel.http.Json;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.Role;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.Optional;

/** Per-tenant policies of the tenant the caller acts on. */
public record TenancyRoutes(TenantService tenants) {

    static final String CURRENT = "/api/v1/tenants/current";
    static final String DISPLAY_NAME = CURRENT + "/display-name";
    static final String FLIGHT_RECORDER = "/api/v1/tenants/current/flight-recorder-policy";
    static final String MAIL_RECIPIENTS = "/api/v1/tenants/current/mail-recipient-policy";

    /** The body of {@code PUT .../mail-recipient-policy}: the whole allowlist, comma-separated. */
    record MailRecipientsSet(String allowlist) {
    }

    /** The body of {@code PUT .../display-name}. */
    record DisplayNameSet(String displayName) {
    }

    public void register(ApiRoutes api) {
        api.get(CURRENT, Role.READ_ONLY, (req, res, c) -> Json.ok(res, tenants.view(c.tenantId())))
                .put(DISPLAY_NAME, Role.TENANT_ADMIN, (req, res, c) -> {
                    String name = Json.read(req, DisplayNameSet.class).displayName();
                    // a missing or null name is refused like an empty one: clearing is DELETE
                    Json.ok(res, tenants.setDisplayName(c.tenantId(), Optional.of(name == null ? "" : name), c.sub()));
                })
                .delete(DISPLAY_NAME, Role.TENANT_ADMIN, (req, res, c) -> Json.ok(res, tenants.setDisplayName(
                        c.tenantId(), Optional.empty(), c.sub())))
                .get(FLIGHT_RECORDER, Role.READ_ONLY, this::showFlightRecorder)
                .patch(FLIGHT_RECORDER, Role.TENANT_ADMIN, this::setFlightRecorder)
                .get(MAIL_RECIPIENTS, Role.READ_ONLY, (req, res, c) -> Json.ok(res,
                        tenants.mailRecipientPolicy(c.tenantId()).view()))
                .put(MAIL_RECIPIENTS, Role.TENANT_ADMIN, (req, res, c) -> Json.ok(res, tenants.setMailRecipientPolicy(
                        c.tenantId(), Json.read(req, MailRecipientsSet.class).allowlist(), c.sub()).view()))
                .delete(MAIL_RECIPIENTS, Role.TENANT_ADMIN, (req, res, c) -> Json.ok(res,
                        tenants.clearMailRecipientPolicy(c.tenantId()).view()));
    }

    private void showFlightRecorder(ServerRequest req, ServerResponse res, Caller caller) {
        Json.ok(res, tenants.flightRecorderPolicy(caller.tenantId()));
    }

    private void setFlightRecorder(ServerRequest req, ServerResponse res, Caller caller) {
        FlightRecorderPolicy.Change change = Json.read(req, FlightRecorderPolicy.Change.class);
        change.validate();
        Json.ok(res, tenants.updateFlightRecorderPolicy(caller.tenantId(), change, caller.sub()));
    }
}
