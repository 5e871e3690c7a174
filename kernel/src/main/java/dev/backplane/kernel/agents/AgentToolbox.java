package dev.backplane.kernel.agents;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.conventions.Conventions;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.governance.AgentPrincipals;
import dev.backplane.kernel.governance.Approvals;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.tools.ToolRegistry;
import java.util.List;
import java.util.UUID;

/**
 * What a run's model loop may use: the agent tools (the registry the MCP endpoint serves, with the agent transport),
 * the tenant's conventions for the system prompt, approval states, and the kill switch.
 */
public final class AgentToolbox {

    /** One tool as offered to the model. */
    public record Offered(String name, String description, String inputSchema) {
    }

    private final ToolRegistry tools;
    private final Conventions conventions;
    private final Approvals approvals;
    private final AgentPrincipals principals;

    public AgentToolbox(ToolRegistry tools, Conventions conventions, Approvals approvals, AgentPrincipals principals) {
        this.tools = tools;
        this.conventions = conventions;
        this.approvals = approvals;
        this.principals = principals;
    }

    /** The tools this caller may use at all (role), in a stable order. */
    public List<Offered> available(Caller agent) {
        return tools.visibleTo(agent).stream().map(t -> new Offered(t.name(), t.description(), t.inputSchema()))
                .toList();
    }

    /**
     * Runs a tool as the agent (audited as {@code agent.<tool>} unless the tool audits itself); a refusal is a
     * {@link DomainException}.
     */
    public Object run(String name, Caller agent, JsonNode args) {
        return tools.run(tools.find(name).orElseThrow(), agent, args);
    }

    /** The tenant's operational conventions packed for a system prompt (empty when there are none). */
    public String conventions(UUID tenant) {
        return conventions.instructions(tenant);
    }

    /** pending, approved, rejected or expired. */
    public String approvalStatus(UUID tenant, UUID approvalId) {
        return approvals.show(tenant, approvalId).status();
    }

    /** Whether the agent principal is revoked (kill switch) or gone. */
    public boolean revoked(UUID tenant, String principal) {
        return principals.agentRevoked(tenant, principal).orElse(true);
    }
}
