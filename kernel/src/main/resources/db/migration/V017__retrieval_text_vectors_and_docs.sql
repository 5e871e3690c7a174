-- Operation search: embeddings of short texts searched in memory (operation search: one text per operation), keyed by
-- what was embedded — the model and the text's SHA-256 — so each text is embedded once, whichever
-- replica or connector needs it, across restarts and re-ingests.
CREATE TABLE retrieval_text_vectors (
    text_sha256  text        PRIMARY KEY,
    model        text        NOT NULL,
    embedding    real[]      NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now()
);

-- The lexical record of every entry the engine indexes (kb, memory), beside its chunks in
-- retrieval_chunks and under the same partition: the engine's BM25 index is built from these
-- lexemes (PostgreSQL's English configuration), and the GIN index serves full-text search while a
-- replica's change feed is down. Written in one transaction with the entry's chunks.
CREATE TABLE retrieval_docs (
    surface    text     NOT NULL,
    entry_id   uuid     NOT NULL,
    tenant_id  uuid     NOT NULL,
    tsv        tsvector NOT NULL,
    PRIMARY KEY (surface, entry_id)
);
CREATE INDEX retrieval_docs_partition ON retrieval_docs (tenant_id, surface);
CREATE INDEX retrieval_docs_tsv ON retrieval_docs USING gin (tsv);

-- entries indexed before this version: their lexemes are their table's generated tsv
INSERT INTO retrieval_docs (surface, entry_id, tenant_id, tsv)
SELECT DISTINCT ON (c.entry_id) c.surface, c.entry_id, c.tenant_id, k.tsv
  FROM retrieval_chunks c JOIN kb_entries k ON k.id = c.entry_id WHERE c.surface = 'kb';
INSERT INTO retrieval_docs (surface, entry_id, tenant_id, tsv)
SELECT DISTINCT ON (c.entry_id) c.surface, c.entry_id, c.tenant_id, m.tsv
  FROM retrieval_chunks c JOIN memory_entries m ON m.id = c.entry_id WHERE c.surface = 'memory';
