package dev.backplane.kernel.governance;

import dev.backplane.kernel.governance.Approvals.Approval;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.UUID;

/**
 * What else an approval's transition writes, in the transition's own transaction: a call parked, a request
 * approved, rejected, withdrawn or expired. The notifications capability writes its outbox rows here, so the
 * transition and its notification commit together or not at all. Called with the request as the API shows it
 * (its params redacted in {@code resolved}; the raw params never leave the approvals' table).
 */
@FunctionalInterface
public interface ApprovalEvents {

    String PARKED = "parked";
    String APPROVED = "approved";
    String REJECTED = "rejected";
    String WITHDRAWN = "withdrawn";
    String EXPIRED = "expired";

    /** Nothing else is written (tests, tools). */
    ApprovalEvents NONE = (c, tenant, a, event) -> { };

    /** Records {@code event} of {@code a} (of {@code tenant}) in the transition's transaction {@code c}; a failure rolls it back. */
    void recorded(Connection c, UUID tenant, Approval a, String event) throws SQLException;
}
