-- A claimed run holds its sensor until it records (running_until, a lease past the due time in case the
-- replica running it dies): the claim query skips a sensor whose run is still in flight, so runs against a
-- slow target never pile up. last_due_at is the due time of the run last_state came from: a run that
-- finishes after a later one does not overwrite the later state.
ALTER TABLE sensors ADD COLUMN running_until timestamptz;
ALTER TABLE sensors ADD COLUMN last_due_at timestamptz;
