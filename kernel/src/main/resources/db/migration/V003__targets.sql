-- targets: the registry. Names and aliases share one namespace per tenant.
CREATE TABLE targets_targets (
    id                uuid PRIMARY KEY,
    tenant_id         uuid NOT NULL,
    name              text NOT NULL,
    product           text NOT NULL,
    host              text NOT NULL,
    port              integer CHECK (port BETWEEN 1 AND 65535),
    fqdn              text,
    secret_ref        text NOT NULL,
    auth_model        text NOT NULL,
    vpn_required      boolean NOT NULL DEFAULT false,
    notes             text,
    preferred_impl_id text,
    verify_tls        boolean NOT NULL DEFAULT true,
    tls_ca_pin        text,
    tls_server_name   text,
    extras            jsonb NOT NULL DEFAULT '{}'::jsonb,
    version           text,
    fingerprint       jsonb,
    created_at        timestamptz NOT NULL DEFAULT now(),
    updated_at        timestamptz NOT NULL DEFAULT now(),
    created_by        text NOT NULL,
    updated_by        text NOT NULL,
    UNIQUE (tenant_id, name),
    CHECK (verify_tls OR tls_ca_pin IS NULL)
);

CREATE TABLE targets_aliases (
    tenant_id uuid NOT NULL,
    alias     text NOT NULL,
    target_id uuid NOT NULL REFERENCES targets_targets (id) ON DELETE CASCADE,
    PRIMARY KEY (tenant_id, alias)
);
CREATE INDEX targets_aliases_target ON targets_aliases (target_id);
