-- Two rollups the chainer keeps in the transaction where it links each batch of committed audit rows (it reads
-- every row once anyway), so two reads do not scan a tenant's history:
--  * audit_principals: the principals a tenant's log names. `svc audit query --principal <part>` matches the part
--    against this short list and then reads the log by exact principal (audit_rows_tenant_principal), instead of
--    a substring scan of every row in the window.
--  * audit_target_principals: per target and principal, calls, writes and the last call: `who-touched` reads it
--    in one index range. Dropping a month (retention) subtracts that month's counts in the same transaction.
-- Rows not chained yet (the last seconds) are read from audit_rows itself (audit_rows_unchained).
CREATE TABLE audit_principals (
    tenant_id uuid NOT NULL,
    principal text NOT NULL,
    last_at   timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, principal)
);

CREATE TABLE audit_target_principals (
    tenant_id      uuid NOT NULL,
    target         text NOT NULL,
    principal      text NOT NULL,
    principal_kind text NOT NULL,
    calls          bigint NOT NULL,
    writes         bigint NOT NULL,
    last_at        timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, target, principal, principal_kind)
);

-- rows chained before this migration (a deploy that ran V050 first)
INSERT INTO audit_principals (tenant_id, principal, last_at)
SELECT tenant_id, principal, max(occurred_at) FROM audit_rows WHERE chain_seq IS NOT NULL GROUP BY 1, 2;
INSERT INTO audit_target_principals (tenant_id, target, principal, principal_kind, calls, writes, last_at)
SELECT tenant_id, target, principal, principal_kind, count(*), count(*) FILTER (WHERE op_class = 'write'), max(occurred_at)
  FROM audit_rows WHERE chain_seq IS NOT NULL AND target IS NOT NULL GROUP BY 1, 2, 3, 4;
