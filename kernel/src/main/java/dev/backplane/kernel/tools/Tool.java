package dev.backplane.kernel.tools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.Role;
import java.util.Objects;
import java.util.function.BiFunction;

/**
 * One agent tool (SPEC §"Agent tools"): what the model and an MCP client see ({@code name}, {@code description},
 * {@code inputSchema}), who may use it ({@code role}), and what it does ({@code run}).
 *
 * @param effect whether it only reads; an agent's toolset has the reading tools unless it says {@code false}, and the
 *               writing ones only when it says {@code true}
 * @param auditsItself whether the capability writes the call's audit row itself (a dispatch, a docs query); otherwise
 *                     the registry records one row per call ({@code <transport>.<tool>}, op_class read)
 */
public record Tool(String name, String description, String inputSchema, Role role, Effect effect, boolean auditsItself,
                   Run run) {

    /** Whether a tool changes anything (memory, the knowledge base, a target through a governed call). */
    public enum Effect {
        READS,
        WRITES
    }

    /** What a tool does; a dispatching tool tells {@code progress} the pipeline steps it reaches. */
    @FunctionalInterface
    public interface Run {
        Object apply(Caller caller, JsonNode args, ToolProgress progress);
    }

    public Tool {
        Objects.requireNonNull(name, "name is null");
        Objects.requireNonNull(description, "description is null");
        Objects.requireNonNull(inputSchema, "inputSchema is null");
        Objects.requireNonNull(role, "role is null");
        Objects.requireNonNull(effect, "effect is null");
        Objects.requireNonNull(run, "run is null");
    }

    /** A tool the registry audits, with no steps worth reporting while it runs. */
    public static Tool of(String name, String description, String inputSchema, Role role, Effect effect,
                          BiFunction<Caller, JsonNode, Object> run) {
        return new Tool(name, description, inputSchema, role, effect, false, (c, a, progress) -> run.apply(c, a));
    }

    /** This tool, audited by the capability it calls rather than by the registry. */
    public Tool auditedByItsCapability() {
        return new Tool(name, description, inputSchema, role, effect, true, run);
    }
}
