package dev.backplane.cli.sensors;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.common.CliContext;
import picocli.CommandLine.Command;

/** {@code svc sensor}: governed read operations run on a cadence and judged by an assertion. */
@Command(name = "sensor", description = "Sensors: a read operation run on a cadence whose result an assertion maps to "
        + "ok, degraded, critical, unknown or skip [tenant_admin for writes].",
        subcommands = {SensorList.class, SensorShow.class, SensorCreate.class, SensorUpdate.class, SensorPause.class,
                SensorResume.class, SensorDelete.class, SensorResults.class})
public final class SensorCommand {

    static void print(CliContext ctx, JsonNode s) {
        String cadence = s.path("cadence_kind").asText().equals("interval")
                ? "every " + s.path("interval_seconds").asInt() + " s"
                : "cron '" + s.path("cron").asText() + "' (" + s.path("time_zone").asText() + ")";
        ctx.out().println(s.path("id").asText() + "  " + s.path("name").asText() + "  " + s.path("status").asText() + "  "
                + s.path("last_state").asText() + "  " + cadence);
        ctx.out().println("  runs " + s.path("connector_id").asText() + " " + s.path("op_id").asText() + " on "
                + s.path("target").asText() + " as " + s.path("principal").asText() + "; next "
                + s.path("next_run_at").asText("-") + ", last " + s.path("last_evaluated_at").asText("never"));
    }

    /** A sensor with its params and assertion ({@code svc sensor show}). */
    static void printDetail(CliContext ctx, JsonNode x) {
        SensorCommand.print(ctx, x);
        ctx.out().println("  params: " + x.path("params"));
        ctx.out().println("  assertion: " + x.path("assertion"));
    }
}
