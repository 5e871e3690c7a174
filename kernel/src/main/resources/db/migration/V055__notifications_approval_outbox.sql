-- notifications (issue 45, "Telling approvers"): each tenant's approval-notification settings, and the durable
-- outbox the approval's transitions write in their own transaction (park, approve, reject, withdraw, expiry), so a
-- crash never loses one. A delivery job claims due rows (FOR UPDATE SKIP LOCKED, then a lease: next_attempt_at moves
-- past the send), sends the mail or the webhook, and marks the row delivered once, or retries it with a capped
-- exponential backoff until max attempts, when it stays as failed.
CREATE TABLE notification_settings (
    tenant_id          uuid PRIMARY KEY,
    enabled            boolean NOT NULL DEFAULT true,
    mail_recipients    text[] NOT NULL DEFAULT '{}',
    webhook_url        text,
    webhook_format     text NOT NULL DEFAULT 'json' CHECK (webhook_format IN ('json', 'slack', 'teams')),
    webhook_secret_ref text,
    events             text[] NOT NULL DEFAULT '{parked,decided,expired}',
    updated_at         timestamptz NOT NULL DEFAULT now(),
    updated_by         text NOT NULL
);

CREATE TABLE notification_outbox (
    id              uuid PRIMARY KEY,
    tenant_id       uuid NOT NULL,
    approval_id     uuid NOT NULL,
    event           text NOT NULL CHECK (event IN ('parked', 'approved', 'rejected', 'withdrawn', 'expired')),
    channel         text NOT NULL CHECK (channel IN ('mail', 'webhook')),
    message         jsonb NOT NULL,
    status          text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed', 'cancelled')),
    attempts        integer NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    last_error      text,
    created_at      timestamptz NOT NULL DEFAULT now(),
    delivered_at    timestamptz
);

CREATE INDEX notification_outbox_due ON notification_outbox (next_attempt_at) WHERE status = 'pending';
CREATE INDEX notification_outbox_approval ON notification_outbox (tenant_id, approval_id);
