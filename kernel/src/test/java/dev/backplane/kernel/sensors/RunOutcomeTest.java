package dev.backplane.kernel.sensors;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.dispatch.ResultEnvelope;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.util.JsonMapping;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** What a sensor run records for each kind of answer: the state, the detail, the call's status and audit row. */
class RunOutcomeTest {

    private static final Assertion DOWN_IS_CRITICAL = Assertion.parse(json("""
            {"rules": [{"name": "down", "state": "critical", "when": {"path": "/status", "eq": "down"}}],
             "default": "ok", "on_error": "degraded"}"""));

    private static JsonNode json(String text) {
        try {
            return JsonMapping.mapper().readTree(text);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static ResultEnvelope envelope(String status, Object result, String error, Map<String, Object> extras) {
        return new ResultEnvelope(status, "sn.item1.get", result, error, 3, extras);
    }

    @Test
    void anOkAnswerIsJudgedByTheAssertionAndKeepsItsAuditRow() {
        UUID audit = UUID.randomUUID();
        RunOutcome down = RunOutcome.judged(envelope(ResultEnvelope.OK, Map.of("status", "down"), null,
                Map.of("audit_id", audit.toString())), DOWN_IS_CRITICAL);
        assertThat(down).isEqualTo(new RunOutcome(SensorState.CRITICAL, "down matched", "ok", Optional.of(audit)));
        RunOutcome up = RunOutcome.judged(envelope(ResultEnvelope.OK, Map.of("status", "up"), null, Map.of()),
                DOWN_IS_CRITICAL);
        assertThat(up.state()).isEqualTo(SensorState.OK);
        assertThat(up.auditId()).isEmpty();
    }

    @Test
    void anErrorAnswerTakesTheAssertionsOnErrorStateAndSaysWhichError() {
        RunOutcome o = RunOutcome.judged(envelope(ResultEnvelope.ERROR, null, "target timed out",
                Map.of("error_code", "target_timeout")), DOWN_IS_CRITICAL);
        assertThat(o.state()).isEqualTo(SensorState.DEGRADED);
        assertThat(o.callStatus()).isEqualTo("error");
        assertThat(o.detail()).isEqualTo("the call failed (target_timeout): target timed out");
        // without an error code the status stands in for it, and a missing message is empty
        assertThat(RunOutcome.judged(envelope(ResultEnvelope.ERROR, null, null, Map.of()), DOWN_IS_CRITICAL).detail())
                .isEqualTo("the call failed (error): ");
    }

    @Test
    void aCallThatWasNotRunIsUnknownWhateverTheAssertionSays() {
        RunOutcome o = RunOutcome.judged(envelope(ResultEnvelope.DENIED, null, "no grant",
                Map.of("error_code", "policy_denied")), DOWN_IS_CRITICAL);
        assertThat(o.state()).isEqualTo(SensorState.UNKNOWN);
        assertThat(o.callStatus()).isEqualTo("denied");
        assertThat(o.detail()).isEqualTo("the call was not run (policy_denied): no grant");
        assertThat(RunOutcome.judged(envelope(ResultEnvelope.AWAITING_APPROVAL, null, null, Map.of()), DOWN_IS_CRITICAL)
                .state()).isEqualTo(SensorState.UNKNOWN);
    }

    @Test
    void failuresAreUnknownErrorsThatKeepTheAuditRowOfACallAlreadyMade() {
        Optional<UUID> audit = Optional.of(UUID.randomUUID());
        DomainException e = SensorErrors.INVALID_ASSERTION.error("assertion: bad");
        assertThat(RunOutcome.couldNotStart(e, audit)).isEqualTo(new RunOutcome(SensorState.UNKNOWN,
                "the call could not start (invalid_assertion): assertion: bad", "error", audit));
        assertThat(RunOutcome.unparsable(Optional.empty()).detail()).isEqualTo("the sensor's stored params or assertion "
                + "do not parse");
        assertThat(RunOutcome.internalError(audit).auditId()).isEqualTo(audit);
        RunOutcome refused = RunOutcome.refused("operation is no longer a read; the sensor did not call it");
        assertThat(refused.callStatus()).isEqualTo("denied");
        assertThat(refused.state()).isEqualTo(SensorState.UNKNOWN);
    }

    @Test
    void aLongDetailIsCutToFiveHundredCharacters() {
        RunOutcome o = RunOutcome.judged(envelope(ResultEnvelope.ERROR, null, "x".repeat(2_000), Map.of()),
                DOWN_IS_CRITICAL);
        assertThat(o.detail()).hasSize(RunOutcome.MAX_DETAIL_CHARS + 3).endsWith("x...");
        assertThat(new RunOutcome(SensorState.OK, "y".repeat(500), "ok", Optional.empty()).detail()).hasSize(500);
    }
}
