package dev.backplane.kernel.governance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.backplane.kernel.errors.DomainException;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The four-eyes rule without a database: a human's parked call (no agent principal, so nothing is read) and a
 * call parked in an agent run, whose accountable parties are given by the agents capability's function.
 */
class FourEyesTest {

    private static final UUID TENANT = UUID.randomUUID();
    private static final UUID SESSION = UUID.randomUUID();
    private static final FourEyes RULE = new FourEyes((c, tenant, session) -> session.equals(SESSION)
            ? Map.of("starter", "who started agent run " + session) : Map.of());

    private static ApprovalStore.Locked parked(String requester, Optional<UUID> session) {
        return new ApprovalStore.Locked(UUID.randomUUID(), ApprovalStatus.PENDING, requester, "user",
                Optional.empty(), session, UUID.randomUUID(), Map.of());
    }

    private static String refusal(ApprovalStore.Locked row, String approver, Optional<String> reason, boolean breakGlass) {
        try {
            RULE.check(null, TENANT, row, approver, reason, breakGlass);
            return "allowed";
        } catch (DomainException e) {
            return e.code();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void theRequesterCannotApproveTheirOwnCallButAnotherApproverCan() {
        var row = parked("alice", Optional.empty());
        assertThat(refusal(row, "alice", Optional.empty(), false)).isEqualTo("four_eyes");
        assertThat(refusal(row, "bob", Optional.empty(), false)).isEqualTo("allowed");
    }

    @Test
    void breakGlassLetsTheRequesterApproveOnlyWithAReason() {
        var row = parked("alice", Optional.empty());
        assertThat(refusal(row, "alice", Optional.of("pager at 3am"), true)).isEqualTo("allowed");
        assertThat(refusal(row, "alice", Optional.of("  "), true)).isEqualTo("reason_required");
        assertThat(refusal(row, "alice", Optional.empty(), true)).isEqualTo("reason_required");
        assertThat(refusal(row, "bob", Optional.empty(), true)).as("break-glass always needs its reason")
                .isEqualTo("reason_required");
    }

    @Test
    void whoeverStartedTheRunIsBoundAsWellAsTheRequester() {
        var inRun = parked("svc-agent:bot", Optional.of(SESSION));
        assertThat(refusal(inRun, "starter", Optional.empty(), false)).isEqualTo("four_eyes");
        assertThat(refusal(inRun, "svc-agent:bot", Optional.empty(), false)).isEqualTo("four_eyes");
        assertThat(refusal(parked("svc-agent:bot", Optional.empty()), "starter", Optional.empty(), false))
                .as("outside the run the starter is just another approver").isEqualTo("allowed");
        assertThatThrownBy(() -> RULE.check(null, TENANT, inRun, "starter", Optional.empty(), false))
                .hasMessageContaining("who started agent run " + SESSION);
    }
}
