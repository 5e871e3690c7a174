package dev.backplane.kernel.governance;

import dev.backplane.kernel.audit.AuditClass;
import dev.backplane.kernel.audit.AuditLog;
import dev.backplane.kernel.broadcast.Activity;
import dev.backplane.kernel.broadcast.BroadcastFeed;
import dev.backplane.kernel.governance.Approvals.Approval;
import dev.backplane.kernel.identity.Caller;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * What an approval's transition tells others: its audit row (in the transition's own transaction) and, once
 * committed, its line on the tenant's activity feed.
 */
record ApprovalNotices(AuditLog audit, BroadcastFeed broadcast) {

    /** A decision on the tenant's activity feed: the requester as principal, the approver as actor. */
    void announce(Caller approver, Approval a, String decision) {
        broadcast.publish(Activity.of(approver.tenantId(), Activity.Kind.APPROVAL, decision + " call " + a.connectorId()
                + "/" + a.opId() + " on " + a.target(), a.requester(), approver.sub(), Optional.of(decision))
                .withOperation(a.connectorId(), a.opId(), Optional.empty()).withTarget(Optional.of(a.target()))
                .withWork(a.workRef(), Optional.empty()));
    }

    /** The transition's audit row, written in the transition's own transaction: both commit or neither. */
    void recordTransition(Connection c, Caller caller, Approval a, String action, boolean breakGlass)
            throws SQLException {
        Map<String, Object> extras = new LinkedHashMap<>();
        extras.put("approval_request_id", a.id().toString());
        extras.put("requested_op_id", a.opId());
        extras.put("requester", a.requester());
        if (breakGlass) {
            extras.put("break_glass", true);
        }
        audit.recordIn(c, AuditLog.Entry.by(caller, AuditClass.OTHER, "svc.approval." + action)
                .connector(a.connectorId()).target(a.target()).workRef(a.workRef()), "ok", Optional.of(a.id()), extras);
    }
}
