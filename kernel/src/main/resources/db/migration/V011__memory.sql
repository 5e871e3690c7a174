-- Memory: scoped, shorter-lived notes. The natural key is the slug within its scope's owner context:
-- user (owner, across tenants), user-tenant (tenant + owner), user-target (tenant + owner + target),
-- tenant (tenant), target (tenant + target).
CREATE TABLE memory_entries (
    id           uuid        PRIMARY KEY,
    scope        text        NOT NULL CHECK (scope IN ('user', 'user-tenant', 'user-target', 'tenant', 'target')),
    tenant_id    uuid,
    owner_sub    text,
    target_name  text,
    slug         text        NOT NULL,
    body         text        NOT NULL,
    metadata     jsonb       NOT NULL DEFAULT '{}'::jsonb,
    expires_at   timestamptz,
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now(),
    created_by   text        NOT NULL,
    tsv          tsvector GENERATED ALWAYS AS (to_tsvector('english', replace(slug, '-', ' ') || ' ' || body)) STORED
);
CREATE UNIQUE INDEX memory_entries_key ON memory_entries
    (scope, coalesce(tenant_id::text, ''), coalesce(owner_sub, ''), coalesce(target_name, ''), slug);
CREATE INDEX memory_entries_tenant ON memory_entries (tenant_id, scope);
CREATE INDEX memory_entries_owner ON memory_entries (owner_sub, scope);
CREATE INDEX memory_entries_tsv ON memory_entries USING gin (tsv);
CREATE INDEX memory_entries_expiry ON memory_entries (expires_at) WHERE expires_at IS NOT NULL;
