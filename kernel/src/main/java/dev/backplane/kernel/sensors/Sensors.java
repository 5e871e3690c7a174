package dev.backplane.kernel.sensors;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.catalog.CatalogService;
import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.governance.ServiceGrants;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.targets.Target;
import dev.backplane.kernel.targets.TargetService;
import dev.backplane.kernel.util.Paging;
import java.lang.System.Logger.Level;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The sensors of a tenant: create (a read operation only, with its exact service grant), list, show,
 * update, pause, resume, delete, and their results. Each sensor runs as its own service principal
 * {@code svc-sensor:<id>}; creating it grants that principal exactly this connector, operation and
 * target (reason "sensor &lt;name&gt;"), and deleting it revokes the grant — so a sensor can never
 * reach anything but the one read it was created for, and its runs pass the same gate as any call.
 */
public final class Sensors {

    /** The body of create and update; absent fields of an update stay as they are. */
    public record Write(String name, String connectorId, String opId, String target, Map<String, Object> params,
                        JsonNode assertion, Integer intervalSeconds, String cron, String timeZone, String status) {
    }

    /** A page of results and the cursor of the next page (absent on the last one). */
    public record ResultPage(List<SensorResult> results, Optional<String> nextCursor) {
    }

    public static final Paging.Size PAGE = new Paging.Size(100, 500);
    static final String PRINCIPAL_PREFIX = "svc-sensor:";

    private final SensorStore store;
    private final SensorResults results;
    private final CatalogService catalog;
    private final TargetService targets;
    private final ServiceGrants grants;
    private final List<SensorDeletionListener> deletionListeners = new CopyOnWriteArrayList<>();

    public Sensors(Jdbc jdbc, CatalogService catalog, TargetService targets, ServiceGrants grants) {
        this.store = new SensorStore(jdbc);
        this.results = new SensorResults(new SensorRunStore(jdbc));
        this.catalog = catalog;
        this.targets = targets;
        this.grants = grants;
    }

    /** Adds a listener told about each deleted sensor. */
    public void onDelete(SensorDeletionListener listener) {
        deletionListeners.add(listener);
    }

    public Sensor create(Caller caller, Write w) {
        caller.requireHuman("creating a sensor (it grants the sensor's service principal its operation)");
        String name = SensorInput.name(w.name());
        SensorInput.require(w.connectorId(), "connector_id");
        SensorInput.require(w.opId(), "op_id");
        SensorInput.require(w.target(), "target");
        CatalogService.EffectiveOperation op = catalog.effective(caller.tenantId(), w.connectorId(), w.opId());
        if (!op.descriptor().isReadClass()) {
            throw SensorErrors.NOT_A_READ_OPERATION.error("operation " + w.opId() + " of " + w.connectorId()
                    + " is not a read operation (a read that is GET or HEAD when HTTP-shaped); a sensor may only run "
                    + "reads", Map.of("field", "op_id"));
        }
        if (op.view().requiresApproval()) {
            throw SensorErrors.INVALID_SENSOR.error("operation " + w.opId() + " of " + w.connectorId() + " requires "
                    + "approval; a sensor runs unattended and never waits for one", Map.of("field", "op_id"));
        }
        Target target = targets.describe(caller.tenantId(), w.target());
        Map<String, Object> params = SensorInput.params(w.params());
        SensorInput.checkParams(op.descriptor().paramsSchema(), params);
        Assertion assertion = Assertion.parse(w.assertion());
        Cadence cadence = Cadence.of(w.intervalSeconds(), w.cron(), w.timeZone(), Instant.now());
        SensorStatus status = w.status() == null ? SensorStatus.ACTIVE : SensorStatus.parse(w.status());
        if (store.nameTaken(caller.tenantId(), name)) {
            throw exists(name);
        }
        UUID id = UUID.randomUUID();
        String principal = PRINCIPAL_PREFIX + id;
        if (!store.insert(id, caller.tenantId(), name, w.connectorId(), w.opId(), target, params, assertion.source(),
                cadence, SensorStatus.WHILE_GRANTING, principal, caller.sub())) {
            throw exists(name);
        }
        try {
            UUID grant = grants.create(caller.tenantId(), caller.sub(), principal, w.connectorId(), w.opId(),
                    "sensor " + name + " (" + id + ")", Optional.of(target.id().toString()), Optional.empty(),
                    Optional.empty(), Optional.empty()).id();
            store.setGrant(id, grant, status);
        } catch (RuntimeException e) {
            store.remove(id);
            throw e;
        }
        return show(caller.tenantId(), id);
    }

    public List<Sensor> list(UUID tenant, Optional<String> cadenceKind, Optional<String> status, int limit, int offset) {
        Paging page = PAGE.checked(limit, offset);
        cadenceKind.ifPresent(k -> {
            if (!k.equals("interval") && !k.equals("cron")) {
                throw CommonErrors.INVALID_QUERY.error("cadence_kind must be interval or cron, got '" + k + "'",
                        Map.of("field", "cadence_kind"));
            }
        });
        Optional<SensorStatus> wanted = status.map(s -> SensorStatus.of(s).orElseThrow(() ->
                CommonErrors.INVALID_STATUS.error("status must be active or paused, got '" + s + "'",
                        Map.of("field", "status"))));
        return store.list(tenant, cadenceKind, wanted, page.limit(), page.offset());
    }

    public Sensor show(UUID tenant, UUID id) {
        return store.find(tenant, id).orElseThrow(() -> notFound(id.toString()));
    }

    /** What a sensor id answers when it is not a uuid or names no sensor of the tenant. */
    public static DomainException notFound(String id) {
        return SensorErrors.SENSOR_NOT_FOUND.error("no sensor " + id + " in this tenant");
    }

    /**
     * Changes name, params, assertion or cadence; what it runs (connector, operation, target) is fixed at
     * creation because the sensor's grant names exactly that — delete and re-create to change it.
     */
    public Sensor update(Caller caller, UUID id, Write w) {
        Sensor s = show(caller.tenantId(), id);
        if (w.connectorId() != null || w.opId() != null || w.target() != null) {
            throw SensorErrors.INVALID_SENSOR.error("connector_id, op_id and target cannot change (the sensor's service "
                    + "grant names exactly them); delete the sensor and create a new one", Map.of("field", "op_id"));
        }
        if (w.status() != null) {
            throw SensorErrors.INVALID_SENSOR.error("status changes with pause and resume", Map.of("field", "status"));
        }
        String name = w.name() == null ? s.name() : SensorInput.name(w.name());
        Map<String, Object> params = w.params() == null ? s.params() : SensorInput.params(w.params());
        if (w.params() != null) {
            SensorInput.checkParams(catalog.descriptor(caller.tenantId(), s.connectorId(), s.opId()).paramsSchema(), params);
        }
        JsonNode assertion = w.assertion() == null ? s.assertion() : Assertion.parse(w.assertion()).source();
        boolean cadenceChanged = w.intervalSeconds() != null || w.cron() != null || w.timeZone() != null;
        Cadence cadence = !cadenceChanged ? null : w.intervalSeconds() != null
                ? Cadence.of(w.intervalSeconds(), w.cron(), w.timeZone(), Instant.now())
                : Cadence.of(null, w.cron() != null ? w.cron() : s.cron().orElse(null),
                        w.timeZone() != null ? w.timeZone() : s.timeZone().orElse(null), Instant.now());
        if (!store.update(caller.tenantId(), id, name, params, assertion, cadence)) {
            throw exists(name);
        }
        return show(caller.tenantId(), id);
    }

    /** Pauses or resumes; a resumed sensor runs at its next cadence from now, not for the time it was paused. */
    public Sensor setStatus(Caller caller, UUID id, String status) {
        Sensor s = show(caller.tenantId(), id);
        SensorStatus next = SensorStatus.parse(status);
        Instant nextRun = !SensorStatus.parse(s.status()).reschedulesOn(next) ? s.nextRunAt()
                : Cadence.of(s.intervalSeconds().orElse(null), s.cron().orElse(null), s.timeZone().orElse(null),
                        Instant.now()).first();
        store.setStatus(caller.tenantId(), id, next, nextRun);
        return show(caller.tenantId(), id);
    }

    /** Deletes the sensor with its results and dashboard memberships, and revokes its service grant. */
    public void delete(Caller caller, UUID id) {
        Sensor s = show(caller.tenantId(), id);
        s.grantId().ifPresent(g -> grants.revoke(caller.tenantId(), g));
        List<Runnable> after = deletionListeners.stream().map(l -> l.deleting(caller.tenantId(), id)).toList();
        store.delete(caller.tenantId(), id);
        for (Runnable r : after) {
            try {
                r.run();
            } catch (RuntimeException e) {
                System.getLogger(Sensors.class.getName()).log(Level.ERROR,
                        "a listener of sensor " + id + "'s deletion failed", e);
            }
        }
    }

    /**
     * A sensor's results, newest first: {@code cursor} is the {@code next_cursor} of the page before;
     * {@code from}/{@code to} bound evaluated_at (RFC 3339, inclusive); {@code state} filters.
     */
    public ResultPage results(UUID tenant, UUID id, Optional<String> cursor, Optional<String> from, Optional<String> to,
                              int limit, Optional<String> state) {
        show(tenant, id);
        return results.page(tenant, id, SensorResults.query(cursor, from, to, limit, state));
    }

    private static DomainException exists(String name) {
        return SensorErrors.SENSOR_EXISTS.error("a sensor named '" + name + "' exists in this tenant", Map.of("field", "name"));
    }
}
