package dev.backplane.cli.governance;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.KeyedCall;
import dev.backplane.cli.common.QueryString;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code svc audit replay} */
@Command(name = "replay", description = "Replay an agent session's rows with their composite children.")
final class AuditReplay extends KeyedCall {
    @Parameters(index = "0", paramLabel = "<session-id>") String session;
    @Option(names = "--max-depth", description = "default 20") Integer maxDepth;

    AuditReplay() {
        super("GET " + ApiPaths.AUDIT_SESSION);
    }

    @Override
    protected String query() {
        return QueryString.of().add("max_depth", maxDepth).toString();
    }

    @Override
    protected void render(JsonNode tree) {
        if (tree.isEmpty()) {
            ctx.out().println("no rows for session " + session);
        }
        tree.forEach(n -> printNode(n, 0));
    }

    private void printNode(JsonNode n, int depth) {
        ctx.out().println("  ".repeat(depth) + n.path("occurred_at").asText() + " " + n.path("result_status").asText()
                + " " + n.path("op_id").asText() + " " + (n.path("target").isNull() ? "" : n.path("target").asText()));
        n.path("children").forEach(c -> printNode(c, depth + 1));
    }
}
