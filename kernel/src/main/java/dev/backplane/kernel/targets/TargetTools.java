package dev.backplane.kernel.targets;

import static dev.backplane.kernel.tools.ToolArgs.integer;
import static dev.backplane.kernel.tools.ToolArgs.text;

import dev.backplane.kernel.identity.Role;
import dev.backplane.kernel.tools.Tool;
import java.util.List;

/** The targets' agent tool: list_targets. Read-only: agents never register targets (SPEC boundary rules). */
public final class TargetTools {

    private TargetTools() {
    }

    public static List<Tool> of(TargetService targets) {
        return List.of(Tool.of("list_targets", "List the registered targets (name, product, host, port, fingerprint) "
                + "this tenant can act on. Read-only: targets are registered by operators, never by agents.", """
                {"type": "object", "additionalProperties": false, "properties": {
                  "product": {"type": "string", "description": "only targets of this product token, e.g. k8s"},
                  "cursor": {"type": "string", "description": "name of the last target of the previous page"},
                  "limit": {"type": "integer", "minimum": 1, "maximum": 500, "description": "page size (default 100)"}}}""",
                Role.READ_ONLY, Tool.Effect.READS, (c, a) -> targets.list(c.tenantId(), text(a, "cursor"),
                        integer(a, "limit").orElse(100), text(a, "product"))));
    }
}
