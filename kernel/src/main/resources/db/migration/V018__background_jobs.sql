-- jobs: one table for every kind of background job (package jobs, BackgroundJobs). The row is the
-- job's only state, so any replica answers a poll; progress is written as the job goes.
--   kind      connector_ingest (svc connector ingest of a big spec), kb_ingest (svc kb ingest)
--   details   what the job was asked, kind-specific: connector_ingest {source, connector_id, scope,
--             auth_scheme, bytes}; kb_ingest {directory}
--   result    what a succeeded job returned: connector_ingest the ingest result; kb_ingest the file list
--   error     {error_code, message} of a failed job
-- Replaces catalog_ingest_jobs (V012) and kb_ingest_jobs (V015): their rows are copied, then they go.
CREATE TABLE background_jobs (
    id           uuid PRIMARY KEY,
    kind         text NOT NULL,
    tenant_id    uuid NOT NULL,          -- the requesting tenant (the job is visible to it only)
    requested_by text NOT NULL,
    status       text NOT NULL CHECK (status IN ('queued', 'running', 'succeeded', 'failed')),
    details      jsonb NOT NULL,
    progress     jsonb NOT NULL,
    result       jsonb,
    error        jsonb,
    created_at   timestamptz NOT NULL,
    updated_at   timestamptz NOT NULL,
    finished_at  timestamptz
);
CREATE INDEX background_jobs_tenant ON background_jobs (tenant_id, kind, created_at DESC);
-- the reaper's scan: unfinished jobs only
CREATE INDEX background_jobs_unfinished ON background_jobs (kind, updated_at) WHERE status IN ('queued', 'running');

INSERT INTO background_jobs (id, kind, tenant_id, requested_by, status, details, progress, result, error,
                             created_at, updated_at, finished_at)
SELECT id, 'connector_ingest', tenant_id, requested_by, status,
       request || jsonb_build_object('connector_id', connector_id), progress, result, error,
       created_at, updated_at, finished_at
  FROM catalog_ingest_jobs;

-- kb_ingest_jobs.error was text; files was '[]' until the job succeeded (the status route shows [] for a null result).
INSERT INTO background_jobs (id, kind, tenant_id, requested_by, status, details, progress, result, error,
                             created_at, updated_at, finished_at)
SELECT id, 'kb_ingest', tenant_id, requested_by, status, jsonb_build_object('directory', directory), progress, files,
       CASE WHEN error IS NULL THEN NULL
            ELSE jsonb_build_object('error_code', CASE WHEN error LIKE 'the kernel running this ingest stopped%'
                                                       THEN 'ingest_abandoned' ELSE 'ingest_failed' END,
                                    'message', error) END,
       created_at, updated_at, finished_at
  FROM kb_ingest_jobs;

DROP TABLE catalog_ingest_jobs;
DROP TABLE kb_ingest_jobs;

-- the two per-table reapers are now one db-scheduler task, background-job-reaper
DELETE FROM scheduled_tasks WHERE task_name IN ('ingest-job-reaper', 'kb-ingest-job-reaper');
