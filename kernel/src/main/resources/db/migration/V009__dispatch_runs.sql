-- dispatch: asynchronous calls. Raw params are never stored, only their hash; a run whose lease
-- lapses without finishing (its kernel died) is failed by the reaper, never re-dispatched.
CREATE TABLE dispatch_runs (
    id           uuid PRIMARY KEY,
    tenant_id    uuid NOT NULL,
    principal    text NOT NULL,
    connector_id text NOT NULL,
    op_id        text NOT NULL,
    target       text NOT NULL,
    work_ref     text,
    params_hash  text NOT NULL,
    status       text NOT NULL CHECK (status IN ('pending', 'running', 'awaiting_approval', 'succeeded', 'failed', 'cancelled')),
    result       jsonb,
    approval_request_id uuid,
    created_at   timestamptz NOT NULL DEFAULT now(),
    finished_at  timestamptz,
    lease_until  timestamptz NOT NULL
);
CREATE INDEX dispatch_runs_lease ON dispatch_runs (status, lease_until);
