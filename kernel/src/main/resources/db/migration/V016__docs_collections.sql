-- docs add-on (experimental): doc collections backed by an external retrieval service. The
-- backplane stores only the collection's description and how to reach its backend, never the
-- documents. tenant_id NULL marks a global collection (created by a platform_admin).
CREATE TABLE docs_collections (
    id            uuid        PRIMARY KEY,
    tenant_id     uuid,
    key           text        NOT NULL,
    backend_type  text        NOT NULL,
    backend_ref   jsonb       NOT NULL DEFAULT '{}'::jsonb,
    description   text        NOT NULL DEFAULT '',
    product       jsonb       NOT NULL DEFAULT '[]'::jsonb,
    vendor        text,
    when_to_use   text,
    enabled       boolean     NOT NULL DEFAULT true,
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now(),
    created_by    text        NOT NULL,
    updated_by    text        NOT NULL,
    -- one key per namespace: the globals, and each tenant's own (the service also keeps a tenant key
    -- from shadowing a global one, under an advisory lock on the key)
    owner         uuid GENERATED ALWAYS AS (coalesce(tenant_id, '00000000-0000-0000-0000-000000000000'::uuid)) STORED,
    UNIQUE (owner, key)
);
CREATE INDEX docs_collections_key ON docs_collections (key);

-- the capability svc-docs:<key> on a global collection, granted per tenant by a platform_admin
-- (a tenant-owned collection's owner holds it implicitly).
CREATE TABLE docs_collection_grants (
    collection_id uuid        NOT NULL REFERENCES docs_collections (id) ON DELETE CASCADE,
    tenant_id     uuid        NOT NULL,
    granted_by    text        NOT NULL,
    granted_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (collection_id, tenant_id)
);
