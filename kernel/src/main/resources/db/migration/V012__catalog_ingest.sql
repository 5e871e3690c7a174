-- catalog: connectors ingested from vendor API specs, served by a spec engine plugin (generic-openapi).
-- tenant_id NULL = global (every tenant sees it); review state stays per tenant (catalog_connector_reviews).
CREATE TABLE catalog_ingested_connectors (
    scope        text NOT NULL,          -- 'global' or the tenant uuid: one key for the unique constraint
    tenant_id    uuid,
    connector_id text NOT NULL,
    impl_id      text NOT NULL,
    version      text NOT NULL,
    product      text NOT NULL,
    default_port integer NOT NULL,
    engine       text NOT NULL,
    base_path    text NOT NULL,
    auth         jsonb NOT NULL,         -- {scheme, secret_fields, settings}: no secret values
    catalog      jsonb NOT NULL,         -- {groups: [...], operations: [...]}
    specs        jsonb NOT NULL,         -- what was read: location, format, title, info_version, sha256, bytes
    warnings     jsonb NOT NULL,
    revision     text NOT NULL,          -- sha-256 of the stored catalog and auth: engines rebuild only on change
    ingested_at  timestamptz NOT NULL,
    ingested_by  text NOT NULL,
    PRIMARY KEY (scope, connector_id)
);

-- Ingest jobs: big specs are ingested in the background; the row is the job's only state.
CREATE TABLE catalog_ingest_jobs (
    id           uuid PRIMARY KEY,
    tenant_id    uuid NOT NULL,          -- the requesting tenant (the job is visible to it only)
    requested_by text NOT NULL,
    status       text NOT NULL CHECK (status IN ('queued', 'running', 'succeeded', 'failed')),
    connector_id text NOT NULL,
    request      jsonb NOT NULL,
    progress     jsonb NOT NULL,
    result       jsonb,
    error        jsonb,
    created_at   timestamptz NOT NULL,
    updated_at   timestamptz NOT NULL,
    finished_at  timestamptz
);
CREATE INDEX catalog_ingest_jobs_tenant ON catalog_ingest_jobs (tenant_id, created_at DESC);
