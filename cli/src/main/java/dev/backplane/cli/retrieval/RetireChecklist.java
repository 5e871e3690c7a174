package dev.backplane.cli.retrieval;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import picocli.CommandLine.Command;

/** {@code svc retrieval retire-checklist} */
@Command(name = "retire-checklist", description = "Per surface: what must hold before grep (or the catalog's "
        + "lexical search) can be retired, each item pass or fail with evidence.")
final class RetireChecklist extends BackplaneCommand {
    @Override
    protected void execute(Session s) {
        get(s, ApiPaths.RETRIEVAL_RETIRE_CHECKLIST, r -> {
            for (JsonNode x : r.path("surfaces")) {
                ctx.out().println(x.path("surface").asText() + ": " + (x.path("ready").asBoolean() ? "READY"
                        : "NOT READY"));
                for (JsonNode i : x.path("items")) {
                    ctx.out().println("  [" + (i.path("pass").asBoolean() ? "pass" : "FAIL") + "] "
                            + i.path("item").asText() + ": " + i.path("evidence").asText());
                }
            }
            ctx.out().println("overall: " + (r.path("ready").asBoolean() ? "READY to retire grep"
                    : "NOT READY (every surface must pass every item)"));
        });
    }
}
