-- events: the drain takes a subscriber's due deliveries oldest first (EventStore.due). This index gives them in that
-- order, so the drain reads its batch and stops. The old plan used event_deliveries_due with a bitmap of the primary
-- key's subscriber entries. It came from statistics that lag a burst: about 1 row estimated, 4,240 pending. It joined
-- every pending row to its event and sorted them all to take 32, 51 ms a batch at 2,000 events/s (bench/run
-- events). event_deliveries_due stays for the drain-lag gauge, which reads every subscriber's oldest due delivery.
-- A previous release's drain reads the table as before, this index or not.
CREATE INDEX event_deliveries_pending ON event_deliveries (subscriber, next_attempt_at, created_at)
    WHERE status = 'pending';
