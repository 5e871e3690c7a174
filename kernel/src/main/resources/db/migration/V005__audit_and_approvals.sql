-- audit: exactly one row per dispatch. A row is written as 'started' before the target is called
-- (fail-closed) and completed after.
CREATE TABLE audit_rows (
    id                  uuid PRIMARY KEY,
    tenant_id           uuid NOT NULL,
    occurred_at         timestamptz NOT NULL DEFAULT now(),
    principal           text NOT NULL,
    principal_kind      text NOT NULL,
    op_class            text NOT NULL,
    op_id               text NOT NULL,
    connector_id        text,
    target              text,
    target_id           uuid,
    result_status       text NOT NULL CHECK (result_status IN ('started', 'ok', 'error', 'denied', 'awaiting_approval')),
    error_code          text,
    duration_ms         integer,
    session_id          uuid,
    parent_audit_id     uuid,
    work_ref            text,
    params_hash         text,
    approval_request_id uuid,
    extras              jsonb NOT NULL DEFAULT '{}'::jsonb
);
CREATE INDEX audit_rows_tenant_time ON audit_rows (tenant_id, occurred_at DESC);

-- governance: parked calls waiting for a second person.
CREATE TABLE governance_approvals (
    id            uuid PRIMARY KEY,
    tenant_id     uuid NOT NULL,
    status        text NOT NULL CHECK (status IN ('pending', 'approved', 'rejected', 'expired')),
    requester     text NOT NULL,
    connector_id  text NOT NULL,
    op_id         text NOT NULL,
    target        text NOT NULL,
    target_id     uuid NOT NULL,
    params        jsonb NOT NULL,
    resolved      jsonb NOT NULL,
    work_ref      text,
    audit_id      uuid,
    created_at    timestamptz NOT NULL DEFAULT now(),
    expires_at    timestamptz NOT NULL,
    decided_by    text,
    decided_at    timestamptz,
    reason        text,
    break_glass   boolean NOT NULL DEFAULT false,
    requester_kind text NOT NULL DEFAULT 'human',
    execution_audit_id uuid
);
CREATE INDEX governance_approvals_tenant ON governance_approvals (tenant_id, status, created_at DESC);
