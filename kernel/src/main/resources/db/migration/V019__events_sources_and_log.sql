-- events: inbound webhook sources and the durable event log (SPEC "Event source", "Events").
-- A source's secret is never stored here: it lives in the credential store (kv) at
-- tenants/<tenant>/event-sources/<source id>; secret_version says which copy replicas should cache.
CREATE TABLE event_sources (
    id                    uuid PRIMARY KEY,
    tenant_id             uuid NOT NULL,
    slug                  text NOT NULL UNIQUE,
    name                  text NOT NULL,
    kind                  text NOT NULL CHECK (kind IN ('alertrouter', 'dashalert', 'infraops', 'registry', 'generic-json')),
    auth_strategy         text NOT NULL CHECK (auth_strategy IN ('hmac-sha256', 'static-header', 'basic')),
    extras                jsonb NOT NULL DEFAULT '{}'::jsonb,
    status                text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'paused')),
    secret_version        integer NOT NULL DEFAULT 1,
    previous_secret_until timestamptz,
    created_at            timestamptz NOT NULL DEFAULT now(),
    created_by            text NOT NULL,
    updated_at            timestamptz NOT NULL DEFAULT now(),
    updated_by            text NOT NULL,
    UNIQUE (tenant_id, name)
);

-- The event log (outbox): one row per accepted delivery, written in the same transaction as its
-- audit row. (source_id, delivery_id) makes a redelivery idempotent.
CREATE TABLE events (
    id           uuid PRIMARY KEY,
    tenant_id    uuid NOT NULL,
    source_id    uuid NOT NULL,
    source_slug  text NOT NULL,
    kind         text NOT NULL,
    delivery_id  text NOT NULL,
    event_type   text,
    envelope     jsonb NOT NULL,
    received_at  timestamptz NOT NULL DEFAULT now(),
    audit_id     uuid NOT NULL,
    UNIQUE (source_id, delivery_id)
);
CREATE INDEX events_tenant_time ON events (tenant_id, received_at DESC, id DESC);

-- Delivery of each event to each subscriber the kernel has (the scheduler's event triggers, ...):
-- written with the event, in its transaction; a drain on any replica takes due rows with
-- FOR UPDATE SKIP LOCKED, delivers, and marks them in the same transaction as the subscriber's own
-- writes, so an acknowledged delivery is never repeated and a crash before the commit repeats it.
CREATE TABLE event_deliveries (
    subscriber      text NOT NULL,
    event_id        uuid NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    tenant_id       uuid NOT NULL,
    status          text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
    attempts        integer NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    last_error      text,
    delivered_at    timestamptz,
    created_at      timestamptz NOT NULL DEFAULT clock_timestamp(),
    PRIMARY KEY (subscriber, event_id)
);
CREATE INDEX event_deliveries_due ON event_deliveries (next_attempt_at, created_at) WHERE status = 'pending';
CREATE INDEX event_deliveries_event ON event_deliveries (event_id);
