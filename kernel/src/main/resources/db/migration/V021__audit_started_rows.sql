-- audit: the reaper finds rows left 'started' by a kernel that died mid-dispatch without scanning the log.
CREATE INDEX audit_rows_started ON audit_rows (occurred_at) WHERE result_status = 'started';
