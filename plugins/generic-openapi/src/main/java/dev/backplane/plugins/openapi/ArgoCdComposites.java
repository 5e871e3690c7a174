package dev.backplane.plugins.openapi;

import dev.backplane.plugin.api.ConnectorContext;
import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.ErrorCode;
import dev.backplane.plugin.api.IngestedConnector;
import dev.backplane.plugin.api.OpClass;
import dev.backplane.plugin.api.OperationDescriptor;
import dev.backplane.plugin.api.OperationRequest;
import dev.backplane.plugin.api.OperationResult;
import dev.backplane.plugin.api.OperationShape;
import dev.backplane.plugin.api.ResultKind;
import dev.backplane.plugin.api.SafetyLevel;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Argo CD's composite operations, which an operator needs and the API has no single request for: sync and
 * wait until the application is healthy, and roll back to a history id and wait. Each is built from the
 * ingested operations (get, sync, rollback), sent through the same request planner, authentication, TLS
 * and SSRF path as any ingested call; each child request is audited under the composite's row by the
 * kernel ({@link ConnectorContext#beginStep}). They are writes that need approval, like the sync they wrap.
 */
final class ArgoCdComposites {

    static final String IMPL = "argocd";
    static final String GROUP = "applicationservice";
    /** Ingested operations are named {@code <impl>.<group>.<operation>}; the composites join them in that group. */
    private static final String IN_GROUP = IMPL + "." + GROUP + ".";
    static final String GET = IN_GROUP + "application_service_get";
    static final String SYNC = IN_GROUP + "application_service_sync";
    static final String ROLLBACK = IN_GROUP + "application_service_rollback";
    static final String SYNC_AND_WAIT = IN_GROUP + "sync_and_wait";
    static final String ROLLBACK_AND_WAIT = IN_GROUP + "rollback_and_wait";
    static final int MIN_TIMEOUT_SECONDS = 10;
    static final int MAX_TIMEOUT_SECONDS = 1800;
    static final int DEFAULT_TIMEOUT_SECONDS = 300;

    /**
     * Sends one ingested operation as a step of the composite, waiting for its answer no later than the
     * composite's deadline; answers the vendor's JSON, throws when it fails.
     */
    @FunctionalInterface
    interface Children {
        Object call(String childOpId, Map<String, Object> params, Instant deadline);
    }

    private static final String COMMON = """
              "name": {"type": "string", "minLength": 1, "description": "the application's name"},
              "app_namespace": {"type": "string", "description": "the application's namespace, when not Argo CD's own"},
              "project": {"type": "string", "description": "the application's project"},
              "prune": {"type": "boolean", "default": false, "description": "delete resources no longer in the source"},
              "dry_run": {"type": "boolean", "default": false, "description": "only preview the operation in Argo CD; the wait then ends when it finished"},
              "timeout_seconds": {"type": "integer", "minimum": %d, "maximum": %d, "default": %d,
                "description": "how long to wait for the application to become healthy"}"""
            .formatted(MIN_TIMEOUT_SECONDS, MAX_TIMEOUT_SECONDS, DEFAULT_TIMEOUT_SECONDS);

    private ArgoCdComposites() {
    }

    /** The composites this connector gets: none unless it is Argo CD's and has the operations they are built from. */
    static List<OperationDescriptor> operations(IngestedConnector c) {
        Set<String> ops = new java.util.HashSet<>();
        c.catalog().operations().forEach(op -> ops.add(op.opId()));
        boolean group = c.catalog().groups().stream().anyMatch(g -> g.groupKey().equals(GROUP));
        if (!c.descriptor().implId().equals(IMPL) || !group || !ops.containsAll(List.of(GET, SYNC, ROLLBACK))) {
            return List.of();
        }
        return List.of(
                descriptor(SYNC_AND_WAIT, "Syncs an application (optionally to a revision) and waits until the sync "
                        + "operation succeeded and the application is Synced and Healthy; polls with backoff (1 s "
                        + "doubling to 10 s) for at most timeout_seconds. Fails with the application's message when the "
                        + "operation fails or the application turns Degraded.", """
                        {"type": "object", "additionalProperties": false, "required": ["name"], "properties": {
                        %s,
                          "revision": {"type": "string", "description": "the revision to sync to (default: the target revision)"}
                        }}""".formatted(COMMON)),
                descriptor(ROLLBACK_AND_WAIT, "Rolls an application back to an entry of its deployment history (id) "
                        + "and waits until the rollback succeeded and the application is Healthy (a rolled-back "
                        + "application is usually OutOfSync with its target revision); an id not in the history is "
                        + "refused before anything is sent.", """
                        {"type": "object", "additionalProperties": false, "required": ["name", "id"], "properties": {
                        %s,
                          "id": {"type": "integer", "minimum": 0, "description": "the history id to roll back to"}
                        }}""".formatted(COMMON)));
    }

    private static OperationDescriptor descriptor(String opId, String description, String schema) {
        return new OperationDescriptor(opId, GROUP, description, SafetyLevel.CAUTION, true, OpClass.WRITE, schema,
                new OperationShape.Composite(), ResultKind.OBJECT);
    }

    /** Runs composite {@code request.opId()}; every failure is a result, not an exception. */
    static OperationResult run(OperationRequest request, Children children, ConnectorContext ctx) {
        return run(request, children, ctx, new AppWatch(ctx.clock(), d -> Thread.sleep(d.toMillis()), ctx::cancelled));
    }

    static OperationResult run(OperationRequest request, Children children, ConnectorContext ctx, AppWatch watch) {
        Map<String, Object> p = request.params();
        try {
            String name = text(p, "name").orElseThrow(() -> invalid("name is required"));
            Instant deadline = ctx.clock().instant().plus(budget(p, ctx.timeout()));
            Map<String, Object> get = new LinkedHashMap<>();
            get.put("name", name);
            text(p, "app_namespace").ifPresent(v -> get.put("appNamespace", v));
            text(p, "project").ifPresent(v -> get.put("project", List.of(v)));
            boolean dryRun = Boolean.TRUE.equals(p.get("dry_run"));
            Map<String, Object> body = new LinkedHashMap<>();
            text(p, "app_namespace").ifPresent(v -> body.put("appNamespace", v));
            text(p, "project").ifPresent(v -> body.put("project", v));
            body.put("prune", Boolean.TRUE.equals(p.get("prune")));
            body.put("dryRun", dryRun);
            ArgoAppState.Until until;
            if (request.opId().equals(SYNC_AND_WAIT)) {
                text(p, "revision").ifPresent(v -> body.put("revision", v));
                children.call(SYNC, Map.of("name", name, "body", body), deadline);
                until = dryRun ? ArgoAppState.Until.OPERATION_SUCCEEDED : ArgoAppState.Until.SYNCED_AND_HEALTHY;
            } else if (request.opId().equals(ROLLBACK_AND_WAIT)) {
                long id = p.get("id") instanceof Number n ? n.longValue() : -1;
                List<Long> known = ArgoAppState.of(children.call(GET, get, deadline)).historyIds();
                if (!known.contains(id)) {
                    throw new ConnectorException(ErrorCode.INVALID_PARAMS, "application " + name + " has no history id "
                            + id + "; its history ids are " + known + " (nothing was rolled back)",
                            Map.of("known_history_ids", known), null);
                }
                body.put("id", id);
                children.call(ROLLBACK, Map.of("name", name, "body", body), deadline);
                until = dryRun ? ArgoAppState.Until.OPERATION_SUCCEEDED : ArgoAppState.Until.HEALTHY;
            } else {
                throw new ConnectorException(ErrorCode.UNKNOWN_OPERATION, "no composite operation " + request.opId());
            }
            return outcome(name, watch.watch(() -> ArgoAppState.of(children.call(GET, get, deadline)), deadline, until),
                    deadline);
        } catch (ConnectorException e) {
            return new OperationResult.Failure(e.code(), e.getMessage(), e.extras());
        }
    }

    /** timeout_seconds (default 300), but never past the kernel's own limit for the call, less a second to report. */
    private static Duration budget(Map<String, Object> p, Duration callTimeout) {
        long asked = p.get("timeout_seconds") instanceof Number n ? n.longValue() : DEFAULT_TIMEOUT_SECONDS;
        if (asked < MIN_TIMEOUT_SECONDS || asked > MAX_TIMEOUT_SECONDS) {
            throw invalid("timeout_seconds must be " + MIN_TIMEOUT_SECONDS + ".." + MAX_TIMEOUT_SECONDS);
        }
        Duration budget = Duration.ofSeconds(asked);
        Duration cap = callTimeout.minusSeconds(1);
        return cap.isPositive() && cap.compareTo(budget) < 0 ? cap : budget;
    }

    private static OperationResult outcome(String name, AppWatch.Outcome o, Instant deadline) {
        Map<String, Object> extras = new LinkedHashMap<>();
        extras.put("polls", o.polls());
        extras.put("last_state", o.last().describe());
        return switch (o) {
            case AppWatch.Outcome.Settled s -> new OperationResult.Document(s.last().document(name, s.polls()));
            case AppWatch.Outcome.Failed f -> new OperationResult.Failure(ErrorCode.CONNECTOR_ERROR, "application "
                    + name + " did not become healthy (" + f.last().describe() + ")"
                    + (f.last().message().isEmpty() ? "" : ": " + f.last().message()), extras);
            case AppWatch.Outcome.TimedOut t -> new OperationResult.Failure(ErrorCode.CONNECTOR_TIMEOUT, "application "
                    + name + " did not settle by " + deadline + "; last seen: " + t.last().describe(), extras);
            case AppWatch.Outcome.Cancelled c -> new OperationResult.Failure(ErrorCode.CONNECTOR_ERROR, "the call was "
                    + "cancelled while waiting for application " + name + " (the operation was sent; last seen: "
                    + c.last().describe() + ")", extras);
        };
    }

    private static java.util.Optional<String> text(Map<String, Object> p, String key) {
        return p.get(key) instanceof String s && !s.isBlank() ? java.util.Optional.of(s) : java.util.Optional.empty();
    }

    private static ConnectorException invalid(String message) {
        return new ConnectorException(ErrorCode.INVALID_PARAMS, message);
    }
}
