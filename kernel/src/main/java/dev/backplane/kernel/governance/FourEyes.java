package dev.backplane.kernel.governance;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The four-eyes rule of approvals: who may not approve a parked call, and the audited break-glass that lets one
 * of them approve this one request when a reason is given.
 */
final class FourEyes {

    private final Approvals.SessionParties sessionParties;

    FourEyes(Approvals.SessionParties sessionParties) {
        this.sessionParties = sessionParties;
    }

    /** Refuses {@code approver} if they are accountable for the call (unless break-glass), and a reasonless break-glass. */
    void check(Connection c, UUID tenant, ApprovalStore.Locked row, String approver, Optional<String> reason,
               boolean breakGlass) throws SQLException {
        String bound = accountable(c, tenant, row).get(approver);
        if (bound != null && !breakGlass) {
            throw GovernanceErrors.FOUR_EYES.error(bound + " cannot approve this request; another approver must "
                    + "(an audited break-glass exists for emergencies)");
        }
        if (breakGlass && reason.filter(r -> !r.isBlank()).isEmpty()) {
            throw GovernanceErrors.REASON_REQUIRED.error("break-glass approval needs a reason",
                    Map.of("field", "reason"));
        }
    }

    /** Why {@code approver} may not approve the request (they are accountable for it), or empty when they may. */
    Optional<String> bound(Connection c, UUID tenant, ApprovalStore.Locked row, String approver) throws SQLException {
        return Optional.ofNullable(accountable(c, tenant, row).get(approver));
    }

    /**
     * Everyone four-eyes keeps from approving a parked call, with why (review 3, S3): the requester; for an
     * agent principal's call its owner and its registrant; for a call parked in an agent run whoever started the
     * run, wrote the trigger or dashboard that started it, or wrote its definition. The first reason given for a
     * subject wins.
     */
    private Map<String, String> accountable(Connection c, UUID tenant, ApprovalStore.Locked row) throws SQLException {
        Map<String, String> parties = new LinkedHashMap<>();
        parties.put(row.requester(), "the requester");
        if (row.requesterClientId().isPresent()) {
            String client = row.requesterClientId().get();
            for (AgentPrincipalStore.Parties p : AgentPrincipalStore.parties(c, tenant, client)) {
                parties.putIfAbsent(p.ownerSub(), "the owner of agent principal '" + client + "' (it acts on the owner's "
                        + "behalf)");
                parties.putIfAbsent(p.registeredBy(), "who registered agent principal '" + client + "'");
            }
        }
        if (row.requesterSessionId().isPresent()) {
            sessionParties.of(c, tenant, row.requesterSessionId().get()).forEach(parties::putIfAbsent);
        }
        return parties;
    }
}
