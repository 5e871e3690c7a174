/**
 * Agents: agent definitions ({@code agent_definitions}) and their runs ({@code agent_runs}, {@code
 * agent_run_events}), started now or in the background by {@link dev.backplane.kernel.agents.AgentRuns},
 * leased while they execute, handed off to another replica on a graceful shutdown, and failed by the reaper,
 * never re-run, when their kernel dies. {@link dev.backplane.kernel.agents.RunLoop} is the model loop of one
 * run, on the chat model {@link dev.backplane.kernel.agents.ModelGateway} builds from configuration
 * (LangChain4j: an OpenAI-compatible endpoint or Anthropic). Every tool call goes through {@link
 * dev.backplane.kernel.agents.AgentToolbox} as the run's agent principal, so {@code call_operation} takes the
 * dispatch pipeline; the toolbox is an interface the wiring implements, so this package does not depend on the
 * MCP transport. Runs are started by the REST routes, the scheduler's triggers and dashboards' investigators.
 */
package dev.backplane.kernel.agents;
