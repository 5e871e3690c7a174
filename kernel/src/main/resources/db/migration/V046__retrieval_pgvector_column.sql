-- retrieval: pgvector's column for the HNSW index (V047), where the server has pgvector 0.8.0+ (iterative index
-- scans); on a PostgreSQL without it this migration does nothing and retrieval keeps its in-process index.
-- Until now the kernel ran this DDL at every start (PgVectorIndex), outside Flyway; a database on which it did
-- keeps its generated column (IF NOT EXISTS). A new one gets a plain column that a trigger fills: adding a
-- STORED generated column rewrites the whole table under an exclusive lock, blocking every write to a large
-- retrieval_chunks for as long as the rewrite takes, while adding a nullable column is a catalogue change.
-- V047 fills the rows written before the trigger, in small batches, then builds the index concurrently.
DO $$
DECLARE
    v text;
BEGIN
    SELECT coalesce(installed_version, default_version) INTO v FROM pg_available_extensions WHERE name = 'vector';
    IF v IS NULL THEN
        RAISE NOTICE 'pgvector is not available on this server: retrieval keeps its in-process vector index';
        RETURN;
    END IF;
    IF coalesce(string_to_array(substring(v FROM '^[0-9]+(?:\.[0-9]+)*'), '.')::int[], '{0}') < ARRAY[0, 8, 0] THEN
        RAISE NOTICE 'pgvector % is older than 0.8.0 (iterative index scans): retrieval keeps its in-process index', v;
        RETURN;
    END IF;
    CREATE EXTENSION IF NOT EXISTS vector;
    IF to_regtype('vector') IS NULL THEN
        RAISE NOTICE 'the vector extension''s schema is not on the search_path: retrieval keeps its in-process index';
        RETURN;
    END IF;
    IF NOT EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = 'retrieval_chunks'::regclass
                      AND attname = 'embedding_v' AND NOT attisdropped) THEN
        EXECUTE 'ALTER TABLE retrieval_chunks ADD COLUMN embedding_v vector(384)';
        EXECUTE $f$
            CREATE FUNCTION retrieval_chunks_embedding_v() RETURNS trigger LANGUAGE plpgsql AS $b$
            BEGIN
                NEW.embedding_v := NEW.embedding::vector(384);
                RETURN NEW;
            END $b$
        $f$;
        EXECUTE 'CREATE TRIGGER retrieval_chunks_embedding_v BEFORE INSERT OR UPDATE OF embedding ON retrieval_chunks '
             || 'FOR EACH ROW EXECUTE FUNCTION retrieval_chunks_embedding_v()';
    END IF;
END $$;
