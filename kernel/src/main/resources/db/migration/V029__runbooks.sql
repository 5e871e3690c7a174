-- runbooks: versioned templates (draft -> published -> deprecated) and their runs, step by step.
CREATE TABLE runbook_templates (
    tenant_id     uuid NOT NULL,
    slug          text NOT NULL,
    version       integer NOT NULL CHECK (version > 0),
    status        text NOT NULL CHECK (status IN ('draft', 'published', 'deprecated')),
    title         text NOT NULL,
    target_kind   text,
    source        text NOT NULL,          -- the YAML as written
    definition    jsonb NOT NULL,         -- the YAML as validated JSON
    created_by    text NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_by    text NOT NULL,
    updated_at    timestamptz NOT NULL DEFAULT now(),
    published_by  text,
    published_at  timestamptz,
    deprecated_by text,
    deprecated_at timestamptz,
    PRIMARY KEY (tenant_id, slug, version)
);
-- at most one draft of a slug at a time: editing a published template forks the next version as the draft
CREATE UNIQUE INDEX runbook_templates_one_draft ON runbook_templates (tenant_id, slug) WHERE status = 'draft';

CREATE TABLE runbook_runs (
    id            uuid PRIMARY KEY,
    tenant_id     uuid NOT NULL,
    slug          text NOT NULL,
    version       integer NOT NULL,
    target        text,
    inputs        jsonb NOT NULL,
    work_ref      text,
    status        text NOT NULL CHECK (status IN ('in_progress', 'awaiting_approval', 'escalated', 'completed',
                                                  'stopped', 'aborted')),
    step          integer NOT NULL,       -- the current step, 0-based
    phase         text NOT NULL CHECK (phase IN ('pending', 'executing', 'executed')),
    approval_id   uuid,
    last_result   jsonb,                  -- the current step's operation outcome
    assignee      text NOT NULL,
    escalated_by  text,
    reason        text,
    started_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now(),
    finished_at   timestamptz,
    FOREIGN KEY (tenant_id, slug, version) REFERENCES runbook_templates (tenant_id, slug, version)
);
CREATE INDEX runbook_runs_tenant ON runbook_runs (tenant_id, started_at DESC);

-- what happened at each step, in order: operation outcomes, verification answers, escalations, the end
CREATE TABLE runbook_run_log (
    run_id        uuid NOT NULL REFERENCES runbook_runs (id) ON DELETE CASCADE,
    seq           integer NOT NULL,
    tenant_id     uuid NOT NULL,
    step          integer NOT NULL,
    action        text NOT NULL,
    outcome       text,
    detail        jsonb NOT NULL DEFAULT '{}'::jsonb,
    actor         text NOT NULL,
    at            timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (run_id, seq)
);
