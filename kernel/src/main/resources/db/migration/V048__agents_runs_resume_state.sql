-- Graceful hand-off of agent runs between replicas: a kernel that shuts down stores where each of its runs
-- stands (the conversation, the next turn, tool calls not yet answered, the approval one waits for) and sets it
-- pending; another replica's launcher claims it, clears this column and continues the run.
ALTER TABLE agent_runs ADD COLUMN resume_state jsonb;
