package dev.backplane.kernel.sensors;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.dispatch.ResultEnvelope;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.util.JsonMapping;
import java.util.Optional;
import java.util.UUID;

/**
 * What one sensor run records: the state, why (the rule that matched or the call's failure, never params,
 * results or secrets, at most {@link #MAX_DETAIL_CHARS} characters), the call's status and the audit row
 * of its dispatch. A run that could not judge its answer records {@code unknown}.
 */
record RunOutcome(SensorState state, String detail, String callStatus, Optional<UUID> auditId) {

    static final int MAX_DETAIL_CHARS = 500;

    RunOutcome {
        detail = detail.length() <= MAX_DETAIL_CHARS ? detail : detail.substring(0, MAX_DETAIL_CHARS) + "...";
    }

    /**
     * The verdict on a call's answer: an {@code ok} answer is judged by the assertion, an {@code error}
     * answer takes the assertion's {@code on_error} state, and a call that was not run (denied, awaiting
     * approval) is {@code unknown}.
     */
    static RunOutcome judged(ResultEnvelope env, Assertion assertion) {
        Optional<UUID> auditId = auditId(env);
        String code = Optional.ofNullable(env.extras().get("error_code")).map(Object::toString).orElse(env.status());
        String error = Optional.ofNullable(env.error()).orElse("");
        return switch (env.status()) {
            case ResultEnvelope.OK -> {
                JsonNode result = JsonMapping.mapper().valueToTree(env.result());
                Assertion.Verdict v = assertion.evaluate(result);
                yield new RunOutcome(SensorState.stored(v.state()), v.detail(), env.status(), auditId);
            }
            case ResultEnvelope.ERROR -> new RunOutcome(SensorState.stored(assertion.onError()),
                    "the call failed (" + code + "): " + error, env.status(), auditId);
            default -> new RunOutcome(SensorState.UNKNOWN, "the call was not run (" + code + "): " + error, env.status(),
                    auditId);
        };
    }

    /** The audit row of the call's dispatch, when it has one. */
    static Optional<UUID> auditId(ResultEnvelope env) {
        return Optional.ofNullable(env.extras().get("audit_id")).map(Object::toString).map(UUID::fromString);
    }

    /** The operation changed since the sensor was created (see {@code SensorRuns}): no call was made. */
    static RunOutcome refused(String why) {
        return new RunOutcome(SensorState.UNKNOWN, why, ResultEnvelope.DENIED, Optional.empty());
    }

    /*
     * The failures below keep the audit row of a call that was made before the run failed (the stored
     * assertion no longer parsing, an evaluation that threw).
     */

    /** A domain error: the dispatcher refused to start the call, or the stored assertion is no longer valid. */
    static RunOutcome couldNotStart(DomainException e, Optional<UUID> auditId) {
        return failed("the call could not start (" + e.code() + "): " + e.getMessage(), auditId);
    }

    static RunOutcome unparsable(Optional<UUID> auditId) {
        return failed("the sensor's stored params or assertion do not parse", auditId);
    }

    /** Anything else that threw: the stack goes to the log, never to the detail. */
    static RunOutcome internalError(Optional<UUID> auditId) {
        return failed("internal error while running the sensor", auditId);
    }

    private static RunOutcome failed(String detail, Optional<UUID> auditId) {
        return new RunOutcome(SensorState.UNKNOWN, detail, ResultEnvelope.ERROR, auditId);
    }
}
