package dev.backplane.kernel.broadcast;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * One thing that happened in a tenant, as a producer hands it to the {@link BroadcastFeed}: a
 * dispatch, an event ingest, an approval decision, an agent run starting or finishing. Activities
 * carry no parameters and no results — only what the feed may show to anyone in the tenant.
 *
 * @param principal the identity the work ran as (an agent's sub for its calls)
 * @param actorSub whose action produced it (the approver of a decision, the starter of a run; for a
 *                 call, the caller)
 * @param namespace the call's {@code namespace} parameter, when it has one (overrides may scope on it)
 */
public record Activity(UUID tenantId, Instant at, Kind kind, String activity, Optional<String> phase,
                       Optional<String> opClass, Optional<String> connectorId, Optional<String> opId,
                       Optional<String> target, Optional<String> namespace, String principal,
                       Optional<String> principalKind, String actorSub, Optional<String> status,
                       Optional<String> errorCode, Optional<Long> durationMs, Optional<String> workRef,
                       Optional<String> runId) {

    /** What kind of activity; {@code announcement} and {@code aggregate} rows are made by the feed itself. */
    public enum Kind {
        DISPATCH, INGEST, APPROVAL, RUN, ANNOUNCEMENT, AGGREGATE;

        public String wireName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    public Activity {
        requireNonNull(tenantId, "tenantId is null");
        requireNonNull(at, "at is null");
        requireNonNull(kind, "kind is null");
        requireNonNull(activity, "activity is null");
        requireNonNull(principal, "principal is null");
        requireNonNull(actorSub, "actorSub is null");
    }

    /** A finished operation call, whatever its outcome. */
    public static Activity dispatch(UUID tenant, Instant at, String principal, String principalKind, String connectorId,
                                    String opId, Optional<String> opClass, String target, Optional<String> namespace,
                                    String status, Optional<String> errorCode, long durationMs, Optional<String> workRef,
                                    Optional<String> runId) {
        return new Activity(tenant, at, Kind.DISPATCH, "call " + connectorId + "/" + opId, Optional.empty(), opClass,
                Optional.of(connectorId), Optional.of(opId), Optional.of(target), namespace, principal,
                Optional.of(principalKind), principal, Optional.of(status), errorCode, Optional.of(durationMs), workRef,
                runId);
    }

    /** Any other activity: a kind, a one-line description, who, and an outcome. */
    public static Activity of(UUID tenant, Kind kind, String activity, String principal, String actorSub,
                              Optional<String> status) {
        return new Activity(tenant, Instant.now(), kind, activity, Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty(), principal, Optional.empty(), actorSub, status,
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());
    }

    public Activity withPhase(String value) {
        return new Activity(tenantId, at, kind, activity, Optional.of(value), opClass, connectorId, opId, target, namespace,
                principal, principalKind, actorSub, status, errorCode, durationMs, workRef, runId);
    }

    public Activity withTarget(Optional<String> value) {
        return new Activity(tenantId, at, kind, activity, phase, opClass, connectorId, opId, value, namespace,
                principal, principalKind, actorSub, status, errorCode, durationMs, workRef, runId);
    }

    public Activity withOperation(String connector, String op, Optional<String> cls) {
        return new Activity(tenantId, at, kind, activity, phase, cls, Optional.of(connector), Optional.of(op), target,
                namespace, principal, principalKind, actorSub, status, errorCode, durationMs, workRef, runId);
    }

    public Activity withWork(Optional<String> ref, Optional<String> run) {
        return new Activity(tenantId, at, kind, activity, phase, opClass, connectorId, opId, target, namespace,
                principal, principalKind, actorSub, status, errorCode, durationMs, ref, run);
    }

    public Activity withErrorCode(Optional<String> code) {
        return new Activity(tenantId, at, kind, activity, phase, opClass, connectorId, opId, target, namespace,
                principal, principalKind, actorSub, status, code, durationMs, workRef, runId);
    }

    /** Every target the activity names (one for a call; an announcement's list). */
    List<String> targets() {
        return target.map(List::of).orElse(List.of());
    }
}
