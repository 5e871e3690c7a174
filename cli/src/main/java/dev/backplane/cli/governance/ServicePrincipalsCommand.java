package dev.backplane.cli.governance;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.common.CliContext;
import picocli.CommandLine.Command;

/** {@code svc service-principals grants create / list / revoke / show}. */
@Command(name = "service-principals", description = "Service principals.", subcommands = {
        ServiceGrants.class})
public final class ServicePrincipalsCommand {

    static void print(CliContext ctx, JsonNode g) {
        ctx.out().println(g.path("id").asText() + "  " + g.path("principal").asText() + "  " + g.path("connector_id").asText()
                + " " + g.path("op_id").asText() + "  targets:"
                + (g.path("target").isNull() ? "" : " id=" + g.path("target").asText())
                + (g.path("target_name_pattern").isNull() ? "" : " name~" + g.path("target_name_pattern").asText())
                + (g.path("target_product").isNull() ? "" : " product=" + g.path("target_product").asText())
                + (g.path("expires").isNull() ? "" : "  until " + g.path("expires").asText())
                + (g.path("revoked").asBoolean() ? "  [REVOKED]" : "") + "  — " + g.path("reason").asText());
    }
}
