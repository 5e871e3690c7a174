package dev.backplane.cli.conventions;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.common.CliContext;
import picocli.CommandLine.Command;

/** {@code svc conventions}: the tenant's conventions (operational ones reach agents; the others are searched). */
@Command(name = "conventions", description = "The tenant's conventions: operational ones are packed into agents' "
        + "instructions, workflow and reference ones are searched [tenant_admin for writes].",
        subcommands = {ConventionList.class, ConventionShow.class, ConventionCreate.class, ConventionEdit.class,
                ConventionDelete.class, ConventionHistory.class, ConventionSearch.class})
public final class ConventionsCommand {

    static final String KINDS = "operational, workflow or reference";

    private ConventionsCommand() {
    }

    static void print(CliContext ctx, JsonNode c) {
        ctx.out().println(c.path("slug").asText() + "  " + c.path("kind").asText() + "  priority "
                + c.path("priority").asInt() + "  version " + c.path("version").asInt() + "  (updated "
                + c.path("updated_at").asText() + " by " + c.path("updated_by").asText() + ")");
        ctx.out().println("title: " + c.path("title").asText());
        ctx.out().println();
        ctx.out().println(c.path("body").asText());
    }
}
