package dev.backplane.kernel.agents;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.tools.ToolRegistry;
import dev.backplane.kernel.governance.AgentPrincipals;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.util.Paging;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Agent definitions of a tenant: list, show, create, edit (partial), delete. Writes are tenant_admin
 * (declared on the routes) and leave a governance audit row (the route-level trail).
 */
public final class AgentDefinitions {

    /**
     * The body of create and edit. On edit every field is optional; {@code output_schema: null} clears
     * the schema (absent keeps it).
     */
    public record Write(String name, Boolean enabled, String identityRef, String modelTier, String systemPrompt,
                        JsonNode toolset, JsonNode outputSchema, Integer turnBudget) {
    }

    public static final Paging.Size PAGE = new Paging.Size(100, 500);

    private final AgentDefinitionStore store;
    private final AgentPrincipals principals;
    private final AgentDefinitionChecks checks;

    /** @param tools the agent tools (an agent run's registry): what a toolset may name, and which only read */
    public AgentDefinitions(Jdbc jdbc, AgentPrincipals principals, ToolRegistry tools) {
        Toolsets toolsets = new Toolsets(tools.all());
        this.store = new AgentDefinitionStore(jdbc, toolsets);
        this.checks = new AgentDefinitionChecks(toolsets.all());
        this.principals = principals;
    }

    public List<AgentDefinition> list(UUID tenant, int limit, int offset) {
        Paging page = PAGE.checked(limit, offset);
        return store.list(tenant, page.limit(), page.offset());
    }

    public AgentDefinition show(UUID tenant, String name) {
        return store.find(tenant, name).orElseThrow(() -> AgentErrors.AGENT_NOT_FOUND.error("no agent definition '"
                + name + "' in this tenant (svc agent list shows them)", Map.of("name", String.valueOf(name))));
    }

    public AgentDefinition create(Caller caller, Write w) {
        AgentDefinitionChecks.name(w.name());
        if (w.identityRef() == null) {
            throw AgentDefinitionChecks.invalid("identity_ref", "identity_ref is required: the agent principal the "
                    + "runs act as (svc agent-principal list)");
        }
        AgentDefinitionChecks.Checked c = check(caller.tenantId(), w);
        boolean inserted = store.insert(caller.tenantId(), w.name(), new AgentDefinitionStore.Values(
                w.enabled() == null || w.enabled(), w.identityRef(),
                Optional.ofNullable(w.modelTier()).orElse("standard"), Optional.ofNullable(w.systemPrompt()).orElse(""),
                c.toolset().orElse(Map.of()), c.outputSchema().flatMap(s -> s),
                Optional.ofNullable(w.turnBudget()).orElse(20)), caller.sub());
        if (!inserted) {
            throw AgentErrors.AGENT_EXISTS.error("agent definition '" + w.name() + "' already exists (svc agent edit "
                    + "changes it)", Map.of("name", w.name()));
        }
        return show(caller.tenantId(), w.name());
    }

    public AgentDefinition edit(Caller caller, String name, Write w) {
        AgentDefinition before = show(caller.tenantId(), name);
        if (w.name() != null && !w.name().equals(name)) {
            throw AgentDefinitionChecks.invalid("name", "an agent definition cannot be renamed; create a new one");
        }
        AgentDefinitionChecks.Checked c = check(caller.tenantId(), w);
        store.update(caller.tenantId(), name, new AgentDefinitionStore.Values(
                w.enabled() == null ? before.enabled() : w.enabled(),
                w.identityRef() == null ? before.identityRef() : w.identityRef(),
                w.modelTier() == null ? before.modelTier() : w.modelTier(),
                w.systemPrompt() == null ? before.systemPrompt() : w.systemPrompt(),
                c.toolset().orElse(before.toolset()), c.outputSchema().orElse(before.outputSchema()),
                w.turnBudget() == null ? before.turnBudget() : w.turnBudget()));
        return show(caller.tenantId(), name);
    }

    public void delete(Caller caller, String name) {
        if (!store.delete(caller.tenantId(), name)) {
            show(caller.tenantId(), name); // answers agent_not_found
        }
    }

    private AgentDefinitionChecks.Checked check(UUID tenant, Write w) {
        if (w.identityRef() != null) {
            Optional<Boolean> revoked = principals.agentRevoked(tenant, w.identityRef());
            if (revoked.isEmpty()) {
                throw AgentErrors.UNKNOWN_IDENTITY.error("identity_ref '" + w.identityRef() + "' is not an agent "
                        + "principal of this tenant; register it first (svc agent-principal register)",
                        Map.of("field", "identity_ref"));
            }
            if (revoked.get()) {
                throw AgentErrors.UNKNOWN_IDENTITY.error("agent principal '" + w.identityRef() + "' is revoked (kill "
                        + "switch); a run could not act as it", Map.of("field", "identity_ref"));
            }
        }
        return checks.check(w);
    }
}
