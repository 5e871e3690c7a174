-- events: the per-source webhook rate limit's token buckets, one row per source, shared by every replica so a
-- source's rate holds across N replicas instead of N times over (SourceRateLimits: one INSERT ... ON CONFLICT DO
-- UPDATE ... RETURNING per delivery refills from the stored level and time and takes a token).
-- UNLOGGED: a bucket is throttling state, not a record; it writes no WAL and its commit does not wait for a disk
-- flush (the accepted event's own statement does), and a crash or fail-over that empties it only hands each
-- source a fresh burst. A deleted source's bucket goes with it (ON DELETE CASCADE).
CREATE UNLOGGED TABLE event_rate_buckets (
    source_id   uuid             PRIMARY KEY REFERENCES event_sources (id) ON DELETE CASCADE,
    tokens      double precision NOT NULL,
    refilled_at timestamptz      NOT NULL
) WITH (fillfactor = 50);
