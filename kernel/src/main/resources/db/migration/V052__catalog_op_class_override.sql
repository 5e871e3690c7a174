-- An admin's override of an operation's class (`svc connector edit-op --op-class`), beside its safety level and
-- approval flag. NULL keeps the class the connector publishes (the plugin's, or the ingest's heuristic and rules
-- file). 'other' is not offered: an override says what the operation reads or writes.
ALTER TABLE catalog_operation_overrides
    ADD COLUMN op_class text CHECK (op_class IN ('read', 'write', 'credential_read'));
