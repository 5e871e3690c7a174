-- The hash chain's links leave the audit row (docs/operations/audit-log.md, "How the chain is stored").
--
-- Until now the chainer linked a row by rewriting it: UPDATE audit_rows SET chain_seq, chain_hash, chain_pos. The
-- chain columns were indexed, so that update was never HOT: the new row version entered the primary key and every
-- index of the row again, and it wrote the whole row to the WAL a second time (about 2 kB a row, 5 kB after a
-- checkpoint). A commit that waits for its flush waits for that WAL too, which is most of what the webhook ingest's
-- p99 paid at 2,000 events/s (bench/results/events.md).
--
-- Now an audit row is written once and never changed: the chainer inserts a narrow link row per audit row into
-- audit_links (about 130 bytes, its key and one index). audit_links is partitioned by month like audit_rows, with the
-- same bounds and names (audit_rows_y2026m11 has audit_links_y2026m11), so retention drops a month's links with its
-- rows. Rows not linked yet are the rows after the chain watermark, found in time order by audit_rows_time.
--
-- A tenant's chain order is (occurred_at, id) order: the chainer links in that order. So the links' key is
-- (tenant_id, occurred_at, audit_id), and verify reads a tenant's links and its rows (audit_rows_tenant_time,
-- backwards) as two range scans it merges (ChainStore.walk), not one primary-key probe per row.

CREATE TABLE audit_links (
    audit_id    uuid NOT NULL,
    occurred_at timestamptz NOT NULL,
    tenant_id   uuid NOT NULL,
    seq         bigint NOT NULL,
    hash        bytea NOT NULL,
    pos         bigint NOT NULL,
    PRIMARY KEY (tenant_id, occurred_at, audit_id)
) PARTITION BY RANGE (occurred_at);
-- the SIEM stream reads all tenants' links in stream order
CREATE INDEX audit_links_pos ON audit_links (pos);
CREATE TABLE audit_links_default PARTITION OF audit_links DEFAULT;

-- a link partition for each partition of audit_rows, with its bounds (the legacy one included)
DO $$
DECLARE
    p record;
BEGIN
    FOR p IN SELECT c.relname, pg_get_expr(c.relpartbound, c.oid) AS bound
               FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
              WHERE i.inhparent = 'audit_rows'::regclass AND c.relname <> 'audit_rows_default' LOOP
        EXECUTE format('CREATE TABLE %I PARTITION OF audit_links %s',
                       replace(p.relname, 'audit_rows_', 'audit_links_'), p.bound);
    END LOOP;
END $$;

INSERT INTO audit_links (audit_id, occurred_at, tenant_id, seq, hash, pos)
SELECT id, occurred_at, tenant_id, chain_seq, chain_hash, chain_pos FROM audit_rows WHERE chain_seq IS NOT NULL;

DROP INDEX audit_rows_unchained;
DROP INDEX audit_rows_chain;
DROP INDEX audit_rows_chain_pos;
ALTER TABLE audit_rows DROP COLUMN chain_seq, DROP COLUMN chain_hash, DROP COLUMN chain_pos;
-- the chainer reads the rows after its watermark in (occurred_at, id) order over all tenants
CREATE INDEX audit_rows_time ON audit_rows (occurred_at, id);

-- The month's partitions of both tables, created unless they exist. Rows (and links) of that month that landed in
-- a default partition move into the new one in the same transaction. Returns the audit_rows partition's name when
-- it created one, NULL when there was nothing to do.
CREATE OR REPLACE FUNCTION audit_ensure_partition(month_start timestamptz) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    lo timestamptz := date_trunc('month', month_start AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
    hi timestamptz := (date_trunc('month', month_start AT TIME ZONE 'UTC') + interval '1 month') AT TIME ZONE 'UTC';
    suffix text := to_char(month_start AT TIME ZONE 'UTC', '"y"YYYY"m"MM');
    created text;
BEGIN
    IF to_regclass('audit_rows_' || suffix) IS NULL THEN
        PERFORM audit_ensure_month('audit_rows', 'audit_rows_' || suffix, lo, hi);
        created := 'audit_rows_' || suffix;
    END IF;
    IF to_regclass('audit_links_' || suffix) IS NULL THEN
        PERFORM audit_ensure_month('audit_links', 'audit_links_' || suffix, lo, hi);
    END IF;
    RETURN created;
EXCEPTION WHEN invalid_object_definition THEN
    -- the month lies inside the legacy partition's range: it has no partition of its own
    RETURN NULL;
END $$;

-- One month's partition of parent (audit_rows or audit_links), taking over that month's rows from its default.
CREATE FUNCTION audit_ensure_month(parent text, name text, lo timestamptz, hi timestamptz) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    moving boolean;
BEGIN
    EXECUTE format('SELECT EXISTS (SELECT 1 FROM %I WHERE occurred_at >= %L AND occurred_at < %L)',
                   parent || '_default', lo, hi) INTO moving;
    IF moving THEN
        EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS INCLUDING CONSTRAINTS)', name, parent);
        EXECUTE format('WITH moved AS (DELETE FROM %I WHERE occurred_at >= %L AND occurred_at < %L '
                       'RETURNING *) INSERT INTO %I SELECT * FROM moved', parent || '_default', lo, hi, name);
        EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', parent, name, lo, hi);
    ELSE
        EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (%L) TO (%L)', name, parent, lo, hi);
    END IF;
END $$;
