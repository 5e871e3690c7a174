-- results: stored set results behind a handle, owned by (tenant, principal), with an expiry.
CREATE TABLE results_handles (
    id          uuid PRIMARY KEY,
    tenant_id   uuid NOT NULL,
    principal   text NOT NULL,
    op_id       text NOT NULL,
    row_count   integer NOT NULL,
    keys        text[] NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    expires_at  timestamptz NOT NULL
);
CREATE INDEX results_handles_expiry ON results_handles (expires_at);

CREATE TABLE results_rows (
    handle_id uuid NOT NULL REFERENCES results_handles (id) ON DELETE CASCADE,
    ordinal   integer NOT NULL,
    row       jsonb NOT NULL,
    PRIMARY KEY (handle_id, ordinal)
);
