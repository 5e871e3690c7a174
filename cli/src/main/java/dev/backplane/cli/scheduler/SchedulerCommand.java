package dev.backplane.cli.scheduler;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.common.CliContext;
import picocli.CommandLine.Command;

/** {@code svc scheduler}: triggers that start agent runs (kind event: on matching events). */
@Command(name = "scheduler", description = "Triggers that start agent runs, on events or on a schedule "
        + "[tenant_admin for writes] (Beta).",
        subcommands = {TriggerCreate.class, TriggerList.class, TriggerShow.class, TriggerDelete.class,
                TriggerPause.class, TriggerResume.class})
public final class SchedulerCommand {

    static void print(CliContext ctx, JsonNode t) {
        ctx.out().println(t.path("id").asText() + "  " + t.path("kind").asText() + "  " + t.path("status").asText()
                + "  runs " + t.path("agent_definition").asText() + (t.has("cron") ? "  at " + t.path("cron").asText()
                + " (" + t.path("time_zone").asText() + "), next " + t.path("next_fire_at").asText("-")
                : "  on " + t.path("event_filter")));
        if (!t.path("inputs").isNull()) {
            ctx.out().println("  inputs: " + t.path("inputs").asText().lines().findFirst().orElse(""));
        }
    }
}
