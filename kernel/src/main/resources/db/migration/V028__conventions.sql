-- Conventions (SPEC "Other records"): a tenant's named rules for operators and agents. Operational ones are
-- packed into every agent's instructions; workflow and reference ones are searched (retrieval surface
-- 'conventions'). The row is the current state; every create and edit also writes a full version row, so
-- `svc conventions history` can say who changed what when. Deleting a convention deletes its versions (the
-- governance audit trail keeps every write as sent).
CREATE TABLE conventions (
    id          uuid        PRIMARY KEY,
    tenant_id   uuid        NOT NULL,
    slug        text        NOT NULL,
    title       text        NOT NULL,
    kind        text        NOT NULL CHECK (kind IN ('operational', 'workflow', 'reference')),
    priority    integer     NOT NULL DEFAULT 0 CHECK (priority BETWEEN -32768 AND 32767),
    body        text        NOT NULL,
    version     integer     NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    created_by  text        NOT NULL,
    updated_at  timestamptz NOT NULL DEFAULT now(),
    updated_by  text        NOT NULL,
    UNIQUE (tenant_id, slug)
);
CREATE INDEX conventions_operational ON conventions (tenant_id, priority DESC, created_at) WHERE kind = 'operational';

CREATE TABLE convention_versions (
    convention_id uuid        NOT NULL REFERENCES conventions (id) ON DELETE CASCADE,
    version       integer     NOT NULL,
    title         text        NOT NULL,
    kind          text        NOT NULL,
    priority      integer     NOT NULL,
    body          text        NOT NULL,
    changed_by    text        NOT NULL,
    changed_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (convention_id, version)
);

-- conventions are a retrieval surface of their own (svc retrieval usage/eval)
ALTER TABLE retrieval_searches DROP CONSTRAINT IF EXISTS retrieval_searches_surface_check;
ALTER TABLE retrieval_searches ADD CONSTRAINT retrieval_searches_surface_check
    CHECK (surface IN ('kb', 'memory', 'operations', 'conventions'));
ALTER TABLE retrieval_eval_baselines DROP CONSTRAINT IF EXISTS retrieval_eval_baselines_surface_check;
ALTER TABLE retrieval_eval_baselines ADD CONSTRAINT retrieval_eval_baselines_surface_check
    CHECK (surface IN ('kb', 'memory', 'operations', 'conventions'));
