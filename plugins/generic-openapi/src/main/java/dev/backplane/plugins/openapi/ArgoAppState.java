package dev.backplane.plugins.openapi;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a composite reads of an Argo CD Application document ({@code v1alpha1Application}): whether an
 * operation is still pending or running (the top-level {@code operation} is set until the controller
 * finishes it), the last operation's phase and message, the sync and health status, the synced revision,
 * and the ids of the deployment history (what a rollback may name).
 */
record ArgoAppState(boolean operationPending, String phase, String sync, String health, String revision,
                    String message, List<Long> historyIds) {

    /** Phases of a finished operation that did not succeed. */
    private static final List<String> FAILED_PHASES = List.of("Failed", "Error");

    static ArgoAppState of(Object application) {
        Map<?, ?> app = map(application);
        Map<?, ?> status = map(app.get("status"));
        Map<?, ?> op = map(status.get("operationState"));
        Map<?, ?> health = map(status.get("health"));
        String message = text(op.get("message"));
        if (message.isEmpty()) {
            message = text(health.get("message"));
        }
        List<Long> ids = new java.util.ArrayList<>();
        if (status.get("history") instanceof List<?> history) {
            for (Object h : history) {
                Object id = map(h).get("id");
                if (id instanceof Number n) {
                    ids.add(n.longValue());
                } else if (id instanceof String s && s.matches("-?\\d{1,18}")) {
                    ids.add(Long.parseLong(s)); // int64 may travel as a string (protobuf JSON)
                }
            }
        }
        return new ArgoAppState(app.get("operation") != null, text(op.get("phase")),
                text(map(status.get("sync")).get("status")), text(health.get("status")),
                text(map(status.get("sync")).get("revision")), message, List.copyOf(ids));
    }

    /**
     * The operation finished and did not succeed, or (unless it was a dry run, which changes nothing) it succeeded
     * and the application is Degraded.
     */
    boolean failed(Until until) {
        return !operationPending && (FAILED_PHASES.contains(phase) || (phase.equals("Succeeded")
                && health.equals("Degraded") && until != Until.OPERATION_SUCCEEDED));
    }

    /** What a wait waits for once the requested operation finished successfully. */
    enum Until {
        /** Healthy and Synced: a sync. */
        SYNCED_AND_HEALTHY,
        /** Healthy: a rollback, which leaves the application OutOfSync with its target revision. */
        HEALTHY,
        /** Nothing more: a dry run changes nothing in the cluster, so health and sync stay as they were. */
        OPERATION_SUCCEEDED
    }

    /** The requested operation finished successfully and the application is where {@code until} says. */
    boolean settled(Until until) {
        if (operationPending || !phase.equals("Succeeded")) {
            return false;
        }
        return switch (until) {
            case SYNCED_AND_HEALTHY -> health.equals("Healthy") && sync.equals("Synced");
            case HEALTHY -> health.equals("Healthy");
            case OPERATION_SUCCEEDED -> true;
        };
    }

    /** For messages: {@code operation Running, sync OutOfSync, health Progressing}. */
    String describe() {
        return "operation " + (operationPending ? "pending" + (phase.isEmpty() ? "" : " (" + phase + ")")
                : phase.isEmpty() ? "none" : phase) + ", sync " + orUnknown(sync) + ", health " + orUnknown(health);
    }

    /** The composite's result document. */
    Map<String, Object> document(String name, int polls) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", name);
        m.put("operation_phase", phase);
        m.put("sync_status", sync);
        m.put("health_status", health);
        m.put("revision", revision);
        m.put("message", message);
        m.put("polls", polls);
        return m;
    }

    private static String orUnknown(String s) {
        return s.isEmpty() ? "unknown" : s;
    }

    private static Map<?, ?> map(Object o) {
        return o instanceof Map<?, ?> m ? m : Map.of();
    }

    private static String text(Object o) {
        return o == null ? "" : String.valueOf(o);
    }
}
