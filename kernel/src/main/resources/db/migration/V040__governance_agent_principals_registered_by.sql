-- Who registered an agent principal (security review 3, S3). owner_sub is whoever the registrant named as the
-- kill-switch owner; four-eyes refuses both as approvers of the principal's parked calls, so naming someone
-- else as owner no longer lets the registrant approve their own agent's writes. Rows from before are taken as
-- registered by their owner (the default owner was the registrant).
ALTER TABLE governance_agent_principals ADD COLUMN registered_by text;
UPDATE governance_agent_principals SET registered_by = owner_sub WHERE registered_by IS NULL;
ALTER TABLE governance_agent_principals ALTER COLUMN registered_by SET NOT NULL;
