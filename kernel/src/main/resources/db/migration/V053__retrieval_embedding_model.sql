-- retrieval: which embedding model made each chunk vector, so that the model can change (retrieval.model) while
-- searches go on: the new model's vectors are written beside the old ones, searches read only the active model's,
-- and the active model changes, for every replica at once, when no entry lacks the new model's vectors.
-- Every chunk so far came from all-MiniLM-L6-v2 (quantized), the only model kernels before this one ran; the default
-- stays, for them: a replica of the previous release still writes chunks during a rolling upgrade (UpgradeDrillIT), and
-- those are that model's. This release always names the model it writes.
ALTER TABLE retrieval_chunks ADD COLUMN model text NOT NULL DEFAULT 'all-minilm-l6-v2-q';
ALTER TABLE retrieval_chunks DROP CONSTRAINT retrieval_chunks_pkey;
ALTER TABLE retrieval_chunks ADD PRIMARY KEY (surface, entry_id, model, chunk);
CREATE INDEX retrieval_chunks_partition_model ON retrieval_chunks (tenant_id, surface, model);
DROP INDEX retrieval_chunks_tenant;

-- One row: the model searches use (active), the one being filled in (target; null when none) and the one active before
-- the last switch, whose rows go a minute after it (retired; null once they are gone).
CREATE TABLE retrieval_model (
    id          boolean     PRIMARY KEY DEFAULT true CHECK (id),
    active      text        NOT NULL,
    target      text,
    retired     text,
    changed_at  timestamptz NOT NULL DEFAULT now(),
    CHECK (target IS NULL OR target <> active)
);
INSERT INTO retrieval_model (active) VALUES ('all-minilm-l6-v2-q');
