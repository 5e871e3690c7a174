-- Retrieval-quality tooling (svc retrieval usage / eval / retire-checklist).
-- One row per search an operator or agent made on a retrieval surface (kb, memory, operations),
-- over REST or MCP. The query text is not stored: only its SHA-256 and length (as for docs queries).
CREATE TABLE retrieval_searches (
    id              bigserial   PRIMARY KEY,
    tenant_id       uuid        NOT NULL,
    surface         text        NOT NULL CHECK (surface IN ('kb', 'memory', 'operations')),
    principal       text        NOT NULL,
    principal_kind  text        NOT NULL,
    transport       text        NOT NULL CHECK (transport IN ('rest', 'mcp')),
    query_sha256    text        NOT NULL,
    query_chars     integer     NOT NULL,
    hits            integer     NOT NULL,
    latency_ms      integer     NOT NULL,
    searched_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX retrieval_searches_tenant ON retrieval_searches (tenant_id, surface, searched_at);

-- The eval metrics a tenant_admin saved for a surface (svc retrieval eval --save-baseline); one per
-- tenant and surface, replaced on save. --compare-baseline holds a later run to it.
CREATE TABLE retrieval_eval_baselines (
    tenant_id   uuid        NOT NULL,
    surface     text        NOT NULL CHECK (surface IN ('kb', 'memory', 'operations')),
    report      jsonb       NOT NULL,
    saved_at    timestamptz NOT NULL DEFAULT now(),
    saved_by    text        NOT NULL,
    PRIMARY KEY (tenant_id, surface)
);
