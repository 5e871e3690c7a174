-- svc kb ingest: a directory on the backplane host ingested in the background; the row is what
-- `svc kb ingest` polls (any replica answers), progress updated as files are done.
CREATE TABLE kb_ingest_jobs (
    id            uuid        PRIMARY KEY,
    tenant_id     uuid        NOT NULL,
    requested_by  text        NOT NULL,
    directory     text        NOT NULL,
    status        text        NOT NULL CHECK (status IN ('running', 'succeeded', 'failed')),
    progress      jsonb       NOT NULL DEFAULT '{}'::jsonb,
    files         jsonb       NOT NULL DEFAULT '[]'::jsonb,
    error         text,
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now(),
    finished_at   timestamptz
);
CREATE INDEX kb_ingest_jobs_tenant ON kb_ingest_jobs (tenant_id, created_at);
