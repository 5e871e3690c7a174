package dev.backplane.cli.dashboards;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.common.CliContext;
import picocli.CommandLine.Command;

/** {@code svc dashboard}: sensors rolled up to their worst state, with mail when it worsens. */
@Command(name = "dashboard", description = "Dashboards: sensors rolled up to their worst state (skip ignored, none = "
        + "unknown), mailing notify_email when the roll-up worsens to notify_min_state [tenant_admin for writes].",
        subcommands = {DashboardList.class, DashboardShow.class, DashboardCreate.class, DashboardDelete.class})
public final class DashboardCommand {

    static void print(CliContext ctx, JsonNode d) {
        ctx.out().println(d.path("id").asText() + "  " + d.path("name").asText() + "  " + d.path("rollup_state").asText()
                + "  " + d.path("members").size() + " sensor(s)  notify " + (d.path("notify_email").isNull()
                ? "off" : d.path("notify_email").asText() + " at " + d.path("notify_min_state").asText()));
    }

    /** A dashboard with its description, investigator and members ({@code svc dashboard show}). */
    static void printDetail(CliContext ctx, JsonNode d) {
        DashboardCommand.print(ctx, d);
        if (!d.path("description").isNull()) {
            ctx.out().println("  " + d.path("description").asText());
        }
        if (!d.path("investigator_agent").isNull()) {
            ctx.out().println("  investigator: " + d.path("investigator_agent").asText());
        }
        d.path("members").forEach(m -> ctx.out().println("  " + m.path("state").asText() + "  " + m.path("name").asText()
                + "  " + m.path("id").asText()));
    }
}
