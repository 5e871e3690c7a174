package dev.backplane.kernel.sensors;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import dev.backplane.kernel.catalog.CatalogService;
import dev.backplane.kernel.dispatch.CallRequest;
import dev.backplane.kernel.dispatch.Dispatcher;
import dev.backplane.kernel.dispatch.ResultEnvelope;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.PrincipalKind;
import dev.backplane.kernel.identity.Role;
import dev.backplane.kernel.util.JsonMapping;
import java.lang.System.Logger.Level;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * One run of a claimed sensor, once {@link SensorRuns} has started it: the operation re-checked as it is
 * now, the call as the sensor's service principal through the dispatch pipeline, the verdict, the result
 * row, and the state-change listeners told when the latest state changed.
 */
final class SensorCall {

    private static final System.Logger LOG = System.getLogger(SensorRuns.class.getName()); // the runs' log, as before
    private static final TypeReference<Map<String, Object>> PARAMS = new TypeReference<>() { };

    private final SensorRunStore store;
    private final Dispatcher dispatcher;
    private final CatalogService catalog;
    private final List<SensorStateListener> listeners = new CopyOnWriteArrayList<>();

    SensorCall(SensorRunStore store, Dispatcher dispatcher, CatalogService catalog) {
        this.store = store;
        this.dispatcher = dispatcher;
        this.catalog = catalog;
    }

    void onStateChange(SensorStateListener listener) {
        listeners.add(listener);
    }

    /** One run: the call as the sensor's service principal, the verdict, the result row. */
    void run(SensorRuns.Due d) {
        Caller principal = new Caller(d.principal(), Optional.empty(), Optional.of(d.tenant()), d.tenant(), Role.OPERATOR,
                false, PrincipalKind.SERVICE, Optional.empty());
        long t0 = System.nanoTime();
        Optional<UUID> auditId = Optional.empty();
        RunOutcome outcome;
        try {
            Optional<String> refused = refusal(d);
            if (refused.isPresent()) {
                record(d, RunOutcome.refused(refused.get()), (int) ((System.nanoTime() - t0) / 1_000_000));
                return;
            }
            Map<String, Object> params = JsonMapping.mapper().readValue(d.params(), PARAMS);
            ResultEnvelope env = dispatcher.call(principal, new CallRequest(d.connectorId(), d.opId(), d.target(), params,
                    Optional.empty(), Optional.empty(), Optional.empty()));
            auditId = RunOutcome.auditId(env);
            Assertion assertion = Assertion.parse(JsonMapping.mapper().readTree(d.assertion()));
            outcome = RunOutcome.judged(env, assertion);
        } catch (DomainException e) {
            outcome = RunOutcome.couldNotStart(e, auditId);
        } catch (JsonProcessingException e) {
            outcome = RunOutcome.unparsable(auditId);
        } catch (RuntimeException e) {
            // a plugin bug, a database blip, an evaluation that threw: the run still records (state unknown),
            // so the sensor never keeps showing its old state; the stack goes to the log, never to the detail
            LOG.log(Level.ERROR, "sensor " + d.id() + " (tenant " + d.tenant() + ") run failed", e);
            outcome = RunOutcome.internalError(auditId);
        }
        record(d, outcome, (int) ((System.nanoTime() - t0) / 1_000_000));
    }

    /**
     * Why this run must not call, checked against the operation as it is now (a re-ingest or catalog
     * change may have made it a write, or made it require approval, since the sensor was created).
     */
    private Optional<String> refusal(SensorRuns.Due d) {
        if (catalog == null) {
            return Optional.empty();
        }
        CatalogService.EffectiveOperation op = catalog.effective(d.tenant(), d.connectorId(), d.opId());
        if (!op.descriptor().isReadClass()) {
            return Optional.of("operation is no longer a read; the sensor did not call it");
        }
        if (op.view().requiresApproval()) {
            return Optional.of("operation now requires approval; a sensor never waits for one and did not call it");
        }
        return Optional.empty();
    }

    private void record(SensorRuns.Due d, RunOutcome outcome, int durationMs) {
        Optional<SensorRunStore.Recorded> recorded = store.record(d, outcome, durationMs);
        if (recorded.isPresent() && outcome.state().changes(recorded.get().shown(), recorded.get().newest())) {
            for (SensorStateListener l : listeners) {
                try {
                    l.changed(d.tenant(), d.id(), recorded.get().shown().wire(), outcome.state().wire());
                } catch (RuntimeException e) {
                    LOG.log(Level.ERROR, "a listener of sensor " + d.id() + "'s state change failed", e);
                }
            }
        }
    }
}
