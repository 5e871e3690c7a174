-- The expiry (every minute, and before every approval list or show, the console's live inbox included) finds the
-- pending requests past their TTL across tenants: by this partial index, the few pending rows, not every request
-- ever decided (governance_approvals_tenant leads with the tenant).
CREATE INDEX governance_approvals_due ON governance_approvals (expires_at) WHERE status = 'pending';
