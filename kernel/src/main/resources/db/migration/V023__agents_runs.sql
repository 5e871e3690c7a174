-- Agent runs (SPEC "Agent run" states). A run is a row: it survives a restart as a row, and an orphaned
-- running run (its kernel died; lease expired) is failed by the reaper, never re-dispatched.
CREATE TABLE agent_runs (
    handle          uuid        PRIMARY KEY,
    tenant_id       uuid        NOT NULL,
    agent_name      text        NOT NULL,
    status          text        NOT NULL CHECK (status IN ('pending', 'running', 'awaiting_approval', 'succeeded',
                                                            'failed', 'cancelled')),
    started_by      text        NOT NULL,
    work_ref        text,
    input_sha256    text        NOT NULL,
    turns           integer     NOT NULL DEFAULT 0,
    output          jsonb,
    error           text,
    error_code      text,
    approval_id     uuid,
    cancel_requested boolean    NOT NULL DEFAULT false,
    lease_owner     text,
    lease_until     timestamptz,
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now(),
    finished_at     timestamptz
);
CREATE INDEX agent_runs_tenant_created ON agent_runs (tenant_id, created_at DESC);
CREATE INDEX agent_runs_live ON agent_runs (lease_until) WHERE status IN ('pending', 'running', 'awaiting_approval');

-- What happened in a run, in order: turns, tool calls, tool result summaries, approvals, the output.
CREATE TABLE agent_run_events (
    handle      uuid        NOT NULL REFERENCES agent_runs (handle) ON DELETE CASCADE,
    seq         integer     NOT NULL,
    kind        text        NOT NULL,
    payload     jsonb       NOT NULL,
    occurred_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (handle, seq)
);

ALTER TABLE retrieval_searches DROP CONSTRAINT IF EXISTS retrieval_searches_transport_check;
ALTER TABLE retrieval_searches ADD CONSTRAINT retrieval_searches_transport_check
    CHECK (transport IN ('rest', 'mcp', 'agent'));
