-- Agent definitions (SPEC "Agent records"): what an agent run executes. Owned by the agents capability.
CREATE TABLE agent_definitions (
    tenant_id     uuid        NOT NULL,
    name          text        NOT NULL,
    enabled       boolean     NOT NULL DEFAULT true,
    identity_ref  text        NOT NULL,
    model_tier    text        NOT NULL DEFAULT 'standard' CHECK (model_tier IN ('standard', 'fast', 'deep')),
    system_prompt text        NOT NULL DEFAULT '',
    toolset       jsonb       NOT NULL DEFAULT '{}',
    output_schema jsonb,
    turn_budget   integer     NOT NULL DEFAULT 20 CHECK (turn_budget BETWEEN 1 AND 1000),
    created_by    text        NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (tenant_id, name)
);
