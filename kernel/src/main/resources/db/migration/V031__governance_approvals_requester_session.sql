-- The session (agent run, runbook run) a parked call was made in: the call an approval releases is audited
-- in that same session, so replaying the session shows it.
ALTER TABLE governance_approvals ADD COLUMN requester_session_id uuid;
