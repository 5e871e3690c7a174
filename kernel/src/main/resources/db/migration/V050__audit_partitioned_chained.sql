-- The audit log at production scale (docs/operations/audit-log.md).
--
-- 1. audit_rows becomes a table partitioned by month on occurred_at (UTC). The existing table is not copied: it
--    is attached as one partition, audit_rows_legacy, holding everything before the first monthly partition, and
--    dropped whole (after its archive) once all of it has passed retention. Cost on a large table: one sequential
--    scan to validate the partition bound and one build of each index below; no row is rewritten. A deploy
--    without rows starts with monthly partitions straight away. A default partition catches a row whose month
--    has no partition yet (the periodic job creates them months ahead), so an insert never fails for want of one.
-- 2. Tamper evidence: each tenant's rows form a hash chain (chain_seq, chain_hash), computed after commit by
--    the chainer, so writers never wait on each other; chain_pos orders chained rows across tenants for the
--    SIEM stream. Chain heads are sealed in audit_seals with a key the database does not hold.

ALTER TABLE audit_rows RENAME TO audit_rows_legacy;
-- the partitioned table's key is (id, occurred_at); the attach below builds it on the legacy table
ALTER TABLE audit_rows_legacy DROP CONSTRAINT audit_rows_pkey;
DROP INDEX audit_rows_tenant_time;
DROP INDEX audit_rows_started;
ALTER TABLE audit_rows_legacy
    ADD COLUMN chain_seq bigint,
    ADD COLUMN chain_hash bytea,
    ADD COLUMN chain_pos bigint;

CREATE TABLE audit_rows (
    id                  uuid NOT NULL,
    tenant_id           uuid NOT NULL,
    occurred_at         timestamptz NOT NULL DEFAULT now(),
    principal           text NOT NULL,
    principal_kind      text NOT NULL,
    op_class            text NOT NULL,
    op_id               text NOT NULL,
    connector_id        text,
    target              text,
    target_id           uuid,
    -- named as V005 named it, so the legacy table (which has it under that name) can be attached
    result_status       text NOT NULL CONSTRAINT audit_rows_result_status_check
                        CHECK (result_status IN ('started', 'ok', 'error', 'denied', 'awaiting_approval')),
    error_code          text,
    duration_ms         integer,
    session_id          uuid,
    parent_audit_id     uuid,
    work_ref            text,
    params_hash         text,
    approval_request_id uuid,
    extras              jsonb NOT NULL DEFAULT '{}'::jsonb,
    chain_seq           bigint,
    chain_hash          bytea,
    chain_pos           bigint,
    PRIMARY KEY (id, occurred_at)
) PARTITION BY RANGE (occurred_at);

-- every filter of audit query, who-touched and replay starts from the tenant; a time window prunes partitions
CREATE INDEX audit_rows_tenant_time ON audit_rows (tenant_id, occurred_at DESC, id DESC);
CREATE INDEX audit_rows_tenant_target ON audit_rows (tenant_id, target, occurred_at DESC)
    INCLUDE (principal, principal_kind, op_class);
CREATE INDEX audit_rows_tenant_principal ON audit_rows (tenant_id, principal, occurred_at DESC);
CREATE INDEX audit_rows_tenant_op ON audit_rows (tenant_id, op_id text_pattern_ops);
CREATE INDEX audit_rows_tenant_work_ref ON audit_rows (tenant_id, work_ref, occurred_at DESC) WHERE work_ref IS NOT NULL;
CREATE INDEX audit_rows_tenant_session ON audit_rows (tenant_id, session_id, occurred_at) WHERE session_id IS NOT NULL;
CREATE INDEX audit_rows_tenant_parent ON audit_rows (tenant_id, parent_audit_id) WHERE parent_audit_id IS NOT NULL;
-- 'ok' is most rows (the time index finds them); the rest are few and found here
CREATE INDEX audit_rows_tenant_status ON audit_rows (tenant_id, result_status, occurred_at DESC)
    WHERE result_status <> 'ok';
-- the reaper finds rows left 'started' by a kernel that died mid-dispatch without scanning the log
CREATE INDEX audit_rows_started ON audit_rows (occurred_at) WHERE result_status = 'started';
-- the chainer finds rows not yet chained; verify walks a tenant's chain; the stream reads in chain order
CREATE INDEX audit_rows_unchained ON audit_rows (occurred_at, id) WHERE chain_seq IS NULL;
CREATE INDEX audit_rows_chain ON audit_rows (tenant_id, chain_seq) WHERE chain_seq IS NOT NULL;
CREATE INDEX audit_rows_chain_pos ON audit_rows (chain_pos) WHERE chain_pos IS NOT NULL;

CREATE TABLE audit_rows_default PARTITION OF audit_rows DEFAULT;

-- The partition of the month holding month_start (UTC), created unless one exists. Rows of that month that
-- landed in the default partition (the job did not run for a while) move into it in the same transaction.
-- Returns the partition's name when it created one, NULL when there was nothing to do.
CREATE FUNCTION audit_ensure_partition(month_start timestamptz) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    lo timestamptz := date_trunc('month', month_start AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
    hi timestamptz := (date_trunc('month', month_start AT TIME ZONE 'UTC') + interval '1 month') AT TIME ZONE 'UTC';
    name text := 'audit_rows_' || to_char(month_start AT TIME ZONE 'UTC', '"y"YYYY"m"MM');
BEGIN
    IF to_regclass(name) IS NOT NULL THEN
        RETURN NULL;
    END IF;
    IF EXISTS (SELECT 1 FROM audit_rows_default WHERE occurred_at >= lo AND occurred_at < hi) THEN
        EXECUTE format('CREATE TABLE %I (LIKE audit_rows INCLUDING DEFAULTS INCLUDING CONSTRAINTS)', name);
        EXECUTE format('WITH moved AS (DELETE FROM audit_rows_default WHERE occurred_at >= %L AND occurred_at < %L '
                       'RETURNING *) INSERT INTO %I SELECT * FROM moved', lo, hi, name);
        EXECUTE format('ALTER TABLE audit_rows ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', name, lo, hi);
    ELSE
        EXECUTE format('CREATE TABLE %I PARTITION OF audit_rows FOR VALUES FROM (%L) TO (%L)', name, lo, hi);
    END IF;
    RETURN name;
EXCEPTION WHEN invalid_object_definition THEN
    -- the month lies inside the legacy partition's range: it has no partition of its own
    RETURN NULL;
END $$;

DO $$
DECLARE
    newest timestamptz;
    bound timestamptz;
BEGIN
    SELECT max(occurred_at) INTO newest FROM audit_rows_legacy;
    IF newest IS NULL THEN
        DROP TABLE audit_rows_legacy;
    ELSE
        bound := (date_trunc('month', greatest(newest, now()) AT TIME ZONE 'UTC') + interval '1 month') AT TIME ZONE 'UTC';
        -- validated before the attach, so the attach itself does not scan the table again
        EXECUTE format('ALTER TABLE audit_rows_legacy ADD CONSTRAINT audit_rows_legacy_bound '
                       'CHECK (occurred_at IS NOT NULL AND occurred_at < %L) NOT VALID', bound);
        ALTER TABLE audit_rows_legacy VALIDATE CONSTRAINT audit_rows_legacy_bound;
        EXECUTE format('ALTER TABLE audit_rows ATTACH PARTITION audit_rows_legacy FOR VALUES FROM (MINVALUE) TO (%L)', bound);
    END IF;
    FOR m IN 0..3 LOOP
        PERFORM audit_ensure_partition(now() + make_interval(months => m));
    END LOOP;
END $$;

-- Each tenant's chain head as the chainer left it.
CREATE TABLE audit_chain_heads (
    tenant_id   uuid PRIMARY KEY,
    seq         bigint NOT NULL,
    hash        bytea NOT NULL,
    occurred_at timestamptz NOT NULL,
    audit_id    uuid NOT NULL,
    updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE SEQUENCE audit_chain_pos_seq;
-- How far the chainer has got in (occurred_at, id) order over all tenants. A row that commits below it later
-- (a forged insert) is never chained; verify reports it.
CREATE TABLE audit_chain_watermark (
    singleton   boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    occurred_at timestamptz NOT NULL,
    audit_id    uuid NOT NULL
);

-- A chain head sealed with the audit seal key (HMAC-SHA256; mac is NULL when no key is configured).
CREATE TABLE audit_seals (
    id        bigserial PRIMARY KEY,
    tenant_id uuid NOT NULL,
    seq       bigint NOT NULL,
    hash      bytea NOT NULL,
    sealed_at timestamptz NOT NULL DEFAULT now(),
    key_id    text,
    mac       bytea
);
CREATE INDEX audit_seals_tenant ON audit_seals (tenant_id, seq);

-- A tenant's audit retention in days (absent: the deploy's default).
CREATE TABLE audit_retention (
    tenant_id  uuid PRIMARY KEY,
    days       integer NOT NULL CHECK (days > 0),
    updated_by text NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
);

-- An exported partition: its manifest, where its files are, and whether the partition has been dropped.
CREATE TABLE audit_archives (
    name          text PRIMARY KEY,
    partition     text NOT NULL,
    range_from    timestamptz,
    range_to      timestamptz NOT NULL,
    row_count     bigint NOT NULL,
    sha256        text NOT NULL,
    bytes         bigint NOT NULL,
    manifest      jsonb NOT NULL,
    locations     jsonb NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now(),
    verified_at   timestamptz,
    dropped_at    timestamptz
);

-- Where each SIEM sink has got to in chain_pos order.
CREATE TABLE audit_stream_cursors (
    sink        text PRIMARY KEY,
    position    bigint NOT NULL DEFAULT 0,
    updated_at  timestamptz NOT NULL DEFAULT now()
);
