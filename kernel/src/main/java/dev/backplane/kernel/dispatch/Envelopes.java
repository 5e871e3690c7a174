package dev.backplane.kernel.dispatch;

import dev.backplane.plugin.api.ConnectorException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/** Building the {@link ResultEnvelope} of a call: its duration since the call began, failures, the extras added late. */
final class Envelopes {

    private Envelopes() {
    }

    static ResultEnvelope envelope(String status, String opId, Object result, String error, long t0,
                                   Map<String, Object> extras) {
        return new ResultEnvelope(status, opId, result, error, (System.nanoTime() - t0) / 1_000_000, extras);
    }

    /** A connector's failure as an error envelope: its extras, and its code as {@code error_code}. */
    static ResultEnvelope failure(String opId, ConnectorException e, long t0) {
        Map<String, Object> extras = new LinkedHashMap<>(e.extras());
        extras.put("error_code", e.code().wireName());
        return envelope(ResultEnvelope.ERROR, opId, null, e.getMessage(), t0, extras);
    }

    /** {@code env} with {@code key} set to {@code value} in its extras. */
    static ResultEnvelope withExtra(ResultEnvelope env, String key, String value) {
        Map<String, Object> extras = new LinkedHashMap<>(env.extras());
        extras.put(key, value);
        return new ResultEnvelope(env.status(), env.opId(), env.result(), env.error(), env.durationMs(), extras);
    }

    static ResultEnvelope withAudit(ResultEnvelope env, UUID auditId) {
        return withExtra(env, "audit_id", auditId.toString());
    }
}
