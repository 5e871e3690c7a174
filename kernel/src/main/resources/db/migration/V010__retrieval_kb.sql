-- Knowledge base entries (per tenant, slug is the natural key) and the embedding chunks the hybrid
-- retrieval engine searches (any surface: kb now, memory and operations later).
CREATE TABLE kb_entries (
    id          uuid        PRIMARY KEY,
    tenant_id   uuid        NOT NULL,
    slug        text        NOT NULL,
    body        text        NOT NULL,
    body_hash   text        NOT NULL,
    metadata    jsonb       NOT NULL DEFAULT '{}'::jsonb,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now(),
    created_by  text        NOT NULL,
    updated_by  text        NOT NULL,
    tsv         tsvector GENERATED ALWAYS AS (to_tsvector('english', replace(slug, '-', ' ') || ' ' || body)) STORED,
    UNIQUE (tenant_id, slug)
);
CREATE INDEX kb_entries_tsv ON kb_entries USING gin (tsv);
CREATE INDEX kb_entries_metadata ON kb_entries USING gin (metadata jsonb_path_ops);

CREATE TABLE retrieval_chunks (
    surface    text    NOT NULL,
    entry_id   uuid    NOT NULL,
    tenant_id  uuid    NOT NULL,
    chunk      integer NOT NULL,
    embedding  real[]  NOT NULL,
    PRIMARY KEY (surface, entry_id, chunk)
);
CREATE INDEX retrieval_chunks_tenant ON retrieval_chunks (tenant_id, surface);
