package dev.backplane.kernel.agents;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.identity.Caller;
import java.util.List;
import java.util.UUID;

/**
 * What a run's model loop may use: the agent tools (the same registry the MCP endpoint serves, wired in
 * by the application), approval states, and the kill switch. An interface here so this package does
 * not depend on the MCP transport.
 */
public interface AgentToolbox {
    /** One tool as offered to the model. */
    record Offered(String name, String description, String inputSchema) {
    }

    /** The tools this caller may use at all (role), in a stable order. */
    List<Offered> available(Caller agent);

    /** Runs a tool as the agent; a refusal is a {@link DomainException}. */
    Object run(String name, Caller agent, JsonNode args);

    /** The tenant's operational conventions packed for a system prompt (empty when there are none). */
    default String conventions(UUID tenant) {
        return "";
    }

    /** pending, approved, rejected or expired. */
    String approvalStatus(UUID tenant, UUID approvalId);

    /** Whether the agent principal is revoked (kill switch) or gone. */
    boolean revoked(UUID tenant, String principal);
}
