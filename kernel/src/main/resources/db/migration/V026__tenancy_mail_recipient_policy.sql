-- tenancy: who notification mail of a tenant may go to (SPEC "Other records": tenant mail-recipient policy).
-- No row: unset (nobody decided; mail is denied, as for an empty allowlist). An empty array: deny all mail,
-- decided. Entries are normalised (lower case, deduplicated) addresses 'local@domain', domains 'example.com'
-- or subdomain wildcards '.example.com'.
CREATE TABLE tenancy_mail_recipient_policies (
    tenant_id  uuid PRIMARY KEY REFERENCES tenancy_tenants (id),
    allowlist  text[]      NOT NULL,
    updated_at timestamptz NOT NULL,
    updated_by text        NOT NULL
);

-- scheduler: `svc automation list` shows each trigger's latest firing.
CREATE INDEX scheduler_trigger_fires_latest ON scheduler_trigger_fires (trigger_id, fired_at DESC);
