-- events: a delivered delivery row is deleted, not marked (bench/results/events.md, 2026-11-30).
--
-- The drain used to mark each delivered row: UPDATE event_deliveries SET status = 'delivered', ... That update was
-- never HOT: status is in the predicate of two partial indexes (event_deliveries_due, event_deliveries_pending), so
-- each delivered row entered the primary key and all three indexes a second time. At 2,000 events/s it was the
-- database's most expensive statement, above the ingest's own insert (pg_stat_statements: 0.26 ms a row against
-- 0.29 ms for the event, its delivery and its audit row). Nothing reads a delivered row: the subscriber's own writes,
-- committed in the same transaction, are the record of the delivery. The drain now deletes it (EventStore.delivered),
-- which writes one small WAL record and no index entry. Pending and failed rows stay as they were.
--
-- With delivered rows gone the table holds only the outbox's backlog, and two of its four indexes are not needed:
-- - event_deliveries_event (event_id) served the cascade from a deleted event. The primary key now leads with
--   event_id, so it serves that, and the drain's key lookups (both columns given) as before.
-- - event_deliveries_due (next_attempt_at, created_at) served the drain-lag gauge. The gauge now reads each
--   subscriber's oldest pending row from event_deliveries_pending (KernelMetrics).
-- Each accepted event's delivery row now enters two indexes, not four.
--
-- A previous release's replica, during a rolling upgrade, still marks rows delivered. Those rows are harmless (no
-- index but the key holds them) and are removed with their event.
DELETE FROM event_deliveries WHERE status = 'delivered';
ALTER TABLE event_deliveries DROP CONSTRAINT event_deliveries_pkey;
ALTER TABLE event_deliveries ADD PRIMARY KEY (event_id, subscriber);
DROP INDEX event_deliveries_event;
DROP INDEX event_deliveries_due;
