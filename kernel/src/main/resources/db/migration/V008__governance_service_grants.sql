-- governance: exact grants for service principals (no globs; delete-shaped operations refused).
CREATE TABLE governance_service_grants (
    id                  uuid PRIMARY KEY,
    tenant_id           uuid NOT NULL,
    principal           text NOT NULL,
    connector_id        text NOT NULL,
    op_id               text NOT NULL,
    reason              text NOT NULL,
    target_id           uuid,
    target_name_pattern text,
    target_product      text,
    expires_at          timestamptz,
    revoked             boolean NOT NULL DEFAULT false,
    created_by          text NOT NULL,
    created_at          timestamptz NOT NULL DEFAULT now(),
    CHECK (target_id IS NOT NULL OR target_name_pattern IS NOT NULL OR target_product IS NOT NULL)
);
CREATE INDEX governance_service_grants_principal ON governance_service_grants (tenant_id, principal, connector_id, op_id);
