-- catalog: review state of connectors, per tenant. No row means staged / not enabled (default-deny).
CREATE TABLE catalog_connector_reviews (
    tenant_id    uuid NOT NULL,
    connector_id text NOT NULL,
    status       text NOT NULL CHECK (status IN ('staged', 'enabled', 'disabled')),
    updated_at   timestamptz NOT NULL,
    updated_by   text NOT NULL,
    PRIMARY KEY (tenant_id, connector_id)
);

-- Per-operation overrides; keyed by connector id and op id so they survive disable/enable and a plugin upgrade.
CREATE TABLE catalog_operation_overrides (
    tenant_id          uuid NOT NULL,
    connector_id       text NOT NULL,
    op_id              text NOT NULL,
    custom_description text,
    safety_level       text CHECK (safety_level IN ('safe', 'caution', 'dangerous')),
    requires_approval  boolean,
    is_enabled         boolean,
    updated_at         timestamptz NOT NULL,
    updated_by         text NOT NULL,
    PRIMARY KEY (tenant_id, connector_id, op_id)
);

CREATE TABLE catalog_group_edits (
    tenant_id    uuid NOT NULL,
    connector_id text NOT NULL,
    group_key    text NOT NULL,
    display_name text,
    when_to_use  text,
    updated_at   timestamptz NOT NULL,
    updated_by   text NOT NULL,
    PRIMARY KEY (tenant_id, connector_id, group_key)
);
