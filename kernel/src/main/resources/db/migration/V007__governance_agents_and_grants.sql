-- governance: agent principals (the kill switch) and grants bounding agents and user-agents.
CREATE TABLE governance_agent_principals (
    tenant_id  uuid NOT NULL,
    name       text NOT NULL,
    owner_sub  text NOT NULL,
    revoked    boolean NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL DEFAULT now(),
    revoked_at timestamptz,
    revoked_by text,
    PRIMARY KEY (tenant_id, name)
);

CREATE TABLE governance_grants (
    id             uuid PRIMARY KEY,
    tenant_id      uuid NOT NULL,
    principal      text NOT NULL,
    principal_kind text NOT NULL CHECK (principal_kind IN ('agent', 'user-agent')),
    op_pattern     text NOT NULL,
    target         text NOT NULL,
    verdict        text NOT NULL CHECK (verdict IN ('auto-execute', 'needs-approval', 'deny')),
    expires_at     timestamptz,
    elevation      boolean NOT NULL DEFAULT false,
    revoked        boolean NOT NULL DEFAULT false,
    created_by     text NOT NULL,
    created_at     timestamptz NOT NULL DEFAULT now(),
    CHECK (NOT elevation OR expires_at IS NOT NULL)
);
CREATE INDEX governance_grants_principal ON governance_grants (tenant_id, principal);
