-- sensors: a governed read operation run on a cadence (interval seconds or a six-field cron) plus an
-- assertion mapping its result to a state. next_run_at is claimed by one replica at a time (FOR UPDATE
-- SKIP LOCKED) and advanced in the claiming transaction, so a due time runs once across replicas. Each
-- run dispatches as the sensor's own service principal (svc-sensor:<id>) under the exact service grant
-- made with the sensor (grant_id; revoked when the sensor is deleted).
CREATE TABLE sensors (
    id               uuid PRIMARY KEY,
    tenant_id        uuid        NOT NULL REFERENCES tenancy_tenants (id),
    name             text        NOT NULL,
    connector_id     text        NOT NULL,
    op_id            text        NOT NULL,
    target           text        NOT NULL,
    target_id        uuid        NOT NULL,
    params           jsonb       NOT NULL,
    assertion        jsonb       NOT NULL,
    cadence_kind     text        NOT NULL CHECK (cadence_kind IN ('interval', 'cron')),
    interval_seconds integer CHECK (interval_seconds BETWEEN 5 AND 86400),
    cron             text,
    time_zone        text,
    status           text        NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'paused')),
    principal        text        NOT NULL,
    grant_id         uuid,
    next_run_at      timestamptz NOT NULL,
    last_state       text CHECK (last_state IN ('ok', 'degraded', 'critical', 'unknown', 'skip')),
    last_evaluated_at timestamptz,
    created_by       text        NOT NULL,
    created_at       timestamptz NOT NULL DEFAULT now(),
    updated_at       timestamptz NOT NULL DEFAULT now(),
    UNIQUE (tenant_id, name),
    CONSTRAINT sensors_cadence_shape CHECK ((cadence_kind = 'interval') = (interval_seconds IS NOT NULL)
        AND (cadence_kind = 'cron') = (cron IS NOT NULL AND time_zone IS NOT NULL))
);
CREATE INDEX sensors_due ON sensors (next_run_at) WHERE status = 'active';
CREATE INDEX sensors_tenant ON sensors (tenant_id, created_at, id);

-- One evaluation of a sensor: the time it was due, its state, why (a short text, never params or secrets),
-- the audit row of its dispatch. Kept sensors.results-retention-days (default 7).
CREATE TABLE sensor_results (
    id           bigserial PRIMARY KEY,
    sensor_id    uuid        NOT NULL REFERENCES sensors (id) ON DELETE CASCADE,
    tenant_id    uuid        NOT NULL,
    due_at       timestamptz NOT NULL,
    evaluated_at timestamptz NOT NULL,
    state        text        NOT NULL CHECK (state IN ('ok', 'degraded', 'critical', 'unknown', 'skip')),
    detail       text        NOT NULL,
    call_status  text        NOT NULL,
    audit_id     uuid,
    duration_ms  integer     NOT NULL
);
CREATE INDEX sensor_results_by_sensor ON sensor_results (sensor_id, evaluated_at DESC, id DESC);
CREATE INDEX sensor_results_age ON sensor_results (evaluated_at);

-- dashboards: a named set of sensors whose worst state (skip ignored, empty = unknown) is the roll-up;
-- a transition of the roll-up to notify_min_state or worse mails notify_email (each recipient checked
-- against the tenant's mail-recipient policy) at most once per suppression window (last_notified_at),
-- and starts a run of investigator_agent when one is bound.
CREATE TABLE dashboards (
    id                  uuid PRIMARY KEY,
    tenant_id           uuid        NOT NULL REFERENCES tenancy_tenants (id),
    name                text        NOT NULL,
    description         text,
    investigator_prompt text,
    investigator_agent  text,
    notify_email        text,
    notify_min_state    text        NOT NULL DEFAULT 'critical' CHECK (notify_min_state IN ('degraded', 'critical')),
    rollup_state        text        NOT NULL DEFAULT 'unknown',
    rollup_changed_at   timestamptz,
    last_notified_at    timestamptz,
    created_by          text        NOT NULL,
    created_at          timestamptz NOT NULL DEFAULT now(),
    UNIQUE (tenant_id, name)
);

CREATE TABLE dashboard_sensors (
    dashboard_id uuid NOT NULL REFERENCES dashboards (id) ON DELETE CASCADE,
    sensor_id    uuid NOT NULL REFERENCES sensors (id) ON DELETE CASCADE,
    PRIMARY KEY (dashboard_id, sensor_id)
);
CREATE INDEX dashboard_sensors_by_sensor ON dashboard_sensors (sensor_id);
