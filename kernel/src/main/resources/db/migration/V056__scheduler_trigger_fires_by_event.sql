-- Which triggers an event fired (the console's event page): fires by event, not only by (trigger, event).
CREATE INDEX scheduler_trigger_fires_event ON scheduler_trigger_fires (event_id);
