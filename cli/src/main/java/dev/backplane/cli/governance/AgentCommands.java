package dev.backplane.cli.governance;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.common.CliContext;
import dev.backplane.cli.common.Tables;
import java.util.List;

/** {@code svc agent-principal ...} and {@code svc agent grant ...}. */
public final class AgentCommands {

    private AgentCommands() {
    }

    static void principals(CliContext ctx, JsonNode list) {
        // RUNS AS is the subject its runs act under and audit rows name: the principal to grant (svc agent grant create)
        List<List<String>> rows = Tables.rows(list, p -> List.of(p.path("name").asText(), "svc-agent:"
                        + p.path("name").asText(), p.path("owner_sub").asText(), p.path("registered_by").asText(),
                    p.path("revoked").asBoolean() ? "REVOKED " + p.path("revoked_at").asText() : "active"));
        Tables.print(ctx, "no agent principals", List.of("NAME", "RUNS AS", "OWNER", "REGISTERED BY", "STATE"),
                rows);
    }

    static void grant(CliContext ctx, JsonNode g) {
        ctx.out().println(g.path("id").asText() + "  " + g.path("verdict").asText() + "  " + g.path("op").asText()
                + " on " + g.path("target").asText() + "  for " + g.path("principal_kind").asText() + " "
                + g.path("principal").asText() + (g.path("expires").isNull() ? "" : "  until " + g.path("expires").asText())
                + (g.path("elevation").asBoolean() ? "  [elevation]" : "") + (g.path("revoked").asBoolean() ? "  [REVOKED]" : ""));
    }
}
