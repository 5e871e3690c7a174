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

-- Java's UUID.nameUUIDFromBytes (an MD5, version-3 UUID) in SQL: retrieval partitions are named this way
-- (MemoryService.partition); MemoryIT checks the two agree.
CREATE FUNCTION svc_name_uuid(name text) RETURNS uuid LANGUAGE sql IMMUTABLE STRICT AS $$
    SELECT (substr(h, 1, 12) || '3' || substr(h, 14, 3)
            || substr('89ab', (('x' || substr(h, 17, 1))::bit(4)::int & 3) + 1, 1) || substr(h, 18))::uuid
      FROM (SELECT md5(name) AS h) x
$$;

-- entries indexed before this version: their lexemes are their table's generated tsv. Memory's personal
-- scopes (user-tenant, user-target) move from the tenant's partition to the writer's own in the tenant,
-- so that no search ranks with statistics counting another user's personal entries.
INSERT INTO retrieval_docs (surface, entry_id, tenant_id, tsv)
SELECT 'kb', id, tenant_id, tsv FROM kb_entries;
INSERT INTO retrieval_docs (surface, entry_id, tenant_id, tsv)
SELECT 'memory', id, CASE scope WHEN 'user' THEN svc_name_uuid('user:' || owner_sub)
                                WHEN 'user-tenant' THEN svc_name_uuid('personal:' || tenant_id || ':' || owner_sub)
                                WHEN 'user-target' THEN svc_name_uuid('personal:' || tenant_id || ':' || owner_sub)
                                ELSE tenant_id END, tsv
  FROM memory_entries;
UPDATE retrieval_chunks c SET tenant_id = d.tenant_id
  FROM retrieval_docs d
 WHERE c.surface = 'memory' AND d.surface = 'memory' AND d.entry_id = c.entry_id AND c.tenant_id <> d.tenant_id;
