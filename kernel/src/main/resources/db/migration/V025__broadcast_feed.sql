-- broadcast: the tenant activity feed (dispatches, ingests, approval decisions, agent runs, announcements),
-- its per-tenant overrides, and the open aggregation windows of overrides with detail 'aggregate'.
CREATE TABLE broadcast_events (
    id             bigserial PRIMARY KEY,              -- the stream id (SSE id, Last-Event-ID, cursor)
    tenant_id      uuid NOT NULL,
    at             timestamptz NOT NULL,               -- when it happened
    recorded_at    timestamptz NOT NULL DEFAULT clock_timestamp(),
    kind           text NOT NULL CHECK (kind IN ('dispatch', 'ingest', 'approval', 'run', 'announcement', 'aggregate')),
    activity       text NOT NULL,
    phase          text CHECK (phase IN ('start', 'update', 'completion')),
    op_class       text,
    connector_id   text,
    op_id          text,
    target         text,
    targets        text[],
    namespace      text,
    principal      text NOT NULL,
    principal_kind text,
    actor_sub      text NOT NULL,
    status         text,
    error_code     text,
    duration_ms    bigint,
    work_ref       text,
    run_id         text,
    scope          text,
    claim_key      text,                               -- announcements: a later phase of the same claim closes it
    expires_at     timestamptz,                        -- announcements: the TTL claim
    closed_at      timestamptz,
    event_count    integer,                            -- aggregates: how many events the window collapsed
    window_start   timestamptz,
    window_end     timestamptz,
    statuses       jsonb,                              -- aggregates: count per status
    principals     text[]                              -- aggregates: the principals of the window (at most 20)
);
CREATE INDEX broadcast_events_tenant_id ON broadcast_events (tenant_id, id DESC);
CREATE INDEX broadcast_events_recorded ON broadcast_events (recorded_at);
CREATE INDEX broadcast_events_tenant_at ON broadcast_events (tenant_id, at DESC);
CREATE INDEX broadcast_events_open_claims ON broadcast_events (tenant_id, claim_key)
    WHERE kind = 'announcement' AND closed_at IS NULL;

CREATE TABLE broadcast_overrides (
    id             uuid PRIMARY KEY,
    tenant_id      uuid NOT NULL,
    op_id_pattern  text NOT NULL,
    detail         text NOT NULL CHECK (detail IN ('full', 'aggregate')),
    scope_field    text NOT NULL DEFAULT '' CHECK (scope_field IN ('', 'namespace', 'target_name')),
    scope_value    text NOT NULL DEFAULT '',
    created_by     text NOT NULL,
    created_at     timestamptz NOT NULL DEFAULT now(),
    UNIQUE (tenant_id, op_id_pattern, scope_field, scope_value)
);

-- one open window per (tenant, override, operation, scope value); counts from every replica land here,
-- and the flush job turns each closed window into one 'aggregate' event
CREATE TABLE broadcast_windows (
    tenant_id      uuid NOT NULL,
    override_id    uuid NOT NULL,
    connector_id   text NOT NULL,
    op_id          text NOT NULL,
    op_class       text,
    scope_value    text NOT NULL,
    window_start   timestamptz NOT NULL,
    last_at        timestamptz NOT NULL,
    event_count    integer NOT NULL,
    statuses       jsonb NOT NULL,
    principals     text[] NOT NULL,
    targets        text[] NOT NULL,
    PRIMARY KEY (tenant_id, override_id, connector_id, op_id, scope_value, window_start)
);
