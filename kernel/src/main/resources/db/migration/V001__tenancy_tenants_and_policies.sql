-- tenancy: tenants seen in tokens, and per-tenant policies.
CREATE TABLE tenancy_tenants (
    id            uuid PRIMARY KEY,
    first_seen_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE tenancy_flight_recorder_policies (
    tenant_id      uuid PRIMARY KEY REFERENCES tenancy_tenants (id),
    enabled        boolean NOT NULL,
    agent_readable text NOT NULL CHECK (agent_readable IN ('true', 'false', 'inherit')),
    retention_days integer CHECK (retention_days BETWEEN 1 AND 365),
    updated_at     timestamptz NOT NULL,
    updated_by     text NOT NULL
);
