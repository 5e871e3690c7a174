-- Scheduler event triggers (SPEC "Event triggers (scheduler)"): an event whose payload contains the filter
-- starts a run of the bound agent definition, once per (trigger, event).
CREATE TABLE scheduler_triggers (
    id            uuid        PRIMARY KEY,
    tenant_id     uuid        NOT NULL,
    kind          text        NOT NULL CHECK (kind IN ('event')),
    agent_name    text        NOT NULL,
    event_filter  jsonb       NOT NULL,
    -- the filter's top-level string/boolean/null members as 'key=<json value>'
    filter_pairs  text[]      NOT NULL,
    -- one of those pairs, the rarest among the tenant's triggers when the trigger was created ('*' when the
    -- filter has none): an event can only match a trigger whose anchor is one of its own pairs, so matching
    -- looks up the triggers anchored on the event's pairs (and '*') instead of scanning every trigger
    anchor        text        NOT NULL,
    inputs        text,
    status        text        NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'paused')),
    created_by    text        NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX scheduler_triggers_tenant ON scheduler_triggers (tenant_id, created_at);
CREATE INDEX scheduler_triggers_anchor ON scheduler_triggers (tenant_id, anchor) WHERE status = 'active';

-- One row per (trigger, event): the unique key that makes at-least-once delivery and several replicas fire
-- a run exactly once.
CREATE TABLE scheduler_trigger_fires (
    trigger_id uuid        NOT NULL,
    event_id   uuid        NOT NULL,
    run_handle uuid        NOT NULL,
    fired_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (trigger_id, event_id)
);

-- A run a trigger enqueued waits as pending with its prompt until a replica launches it (then the prompt is
-- cleared); runs started over the API never carry one.
ALTER TABLE agent_runs ADD COLUMN pending_input text;
ALTER TABLE agent_runs ADD COLUMN trigger_id uuid;
ALTER TABLE agent_runs ADD COLUMN event_id uuid;
CREATE INDEX agent_runs_launchable ON agent_runs (created_at) WHERE status = 'pending' AND pending_input IS NOT NULL;
