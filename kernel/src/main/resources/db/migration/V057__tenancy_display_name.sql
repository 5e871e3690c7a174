-- A tenant's display name (the console's header, svc tenants show): set by its tenant_admin, absent by default.
ALTER TABLE tenancy_tenants ADD COLUMN display_name text;
ALTER TABLE tenancy_tenants ADD COLUMN display_name_updated_at timestamptz;
ALTER TABLE tenancy_tenants ADD COLUMN display_name_updated_by text;
