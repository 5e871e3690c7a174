-- A tenant's preferred implementation per product (SPEC "Versioning"): when several enabled connectors serve a
-- target's product and version, the target's preferred_impl_id decides first, then this row, then the most
-- specific version range. Set and cleared by a tenant_admin (audited); read by probe and dispatch.
CREATE TABLE connector_preferences (
    tenant_id  uuid        NOT NULL,
    product    text        NOT NULL,
    impl_id    text        NOT NULL,
    set_by     text        NOT NULL,
    set_at     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (tenant_id, product)
);
