-- Cron triggers: a schedule (Spring-style six-field cron with seconds, in a time zone) instead of an event
-- filter; next_fire_at is claimed by one replica at a time (FOR UPDATE SKIP LOCKED). A firing's row in
-- scheduler_trigger_fires is keyed by a name-based uuid of (trigger, scheduled time), so a scheduled time
-- fires one run however many replicas look at it.
ALTER TABLE scheduler_triggers DROP CONSTRAINT scheduler_triggers_kind_check;
ALTER TABLE scheduler_triggers ADD CONSTRAINT scheduler_triggers_kind_check CHECK (kind IN ('event', 'cron'));
ALTER TABLE scheduler_triggers ADD COLUMN cron text;
ALTER TABLE scheduler_triggers ADD COLUMN time_zone text;
ALTER TABLE scheduler_triggers ADD COLUMN next_fire_at timestamptz;
ALTER TABLE scheduler_triggers ADD CONSTRAINT scheduler_triggers_cron_shape
    CHECK ((kind = 'cron') = (cron IS NOT NULL AND time_zone IS NOT NULL));
CREATE INDEX scheduler_triggers_due ON scheduler_triggers (next_fire_at) WHERE kind = 'cron' AND status = 'active';
ALTER TABLE scheduler_trigger_fires ADD COLUMN scheduled_for timestamptz;
