-- governance: an approval request remembers the OIDC client (agent principal) that parked it, so the kill
-- switch can withdraw its pending requests and the agent's owner cannot be its four-eyes approver.
ALTER TABLE governance_approvals ADD COLUMN requester_client_id text;
CREATE INDEX governance_approvals_requester_client ON governance_approvals (tenant_id, requester_client_id)
    WHERE status = 'pending';
