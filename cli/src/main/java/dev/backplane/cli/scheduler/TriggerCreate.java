package dev.backplane.cli.scheduler;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.RequestBody;
import dev.backplane.cli.common.TextArgs;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code svc scheduler create} */
@Command(name = "create", description = "Create a trigger [tenant_admin]: --kind event runs --agent-definition for "
        + "every event whose payload contains --event-filter; --kind cron runs it on a schedule (--cron, six fields with "
        + "seconds, e.g. '0 */15 * * * *'; --time-zone, default UTC) with --inputs as the prompt.")
final class TriggerCreate extends BackplaneCommand {
    @Option(names = "--kind", required = true, description = "event or cron") String kind;
    @Option(names = "--agent-definition", required = true, paramLabel = "<name>") String agent;
    @Option(names = "--event-filter", paramLabel = "<json|@file>",
            description = "kind event: JSON object the event payload must contain ({} matches every event of the tenant)")
    String filter;
    @Option(names = "--cron", paramLabel = "<expression>", description = "kind cron: second minute hour day-of-month "
            + "month day-of-week, e.g. '0 0 6 * * MON-FRI'")
    String cron;
    @Option(names = "--time-zone", paramLabel = "<zone>", description = "kind cron: the schedule's zone (default UTC)")
    String timeZone;
    @Option(names = "--inputs", paramLabel = "<prompt|@file>", description = "the run's prompt (the event follows it, "
            + "marked as untrusted input); default: a prompt made from the event")
    String inputs;

    @RequestBody
    record NewTrigger(String kind, String agentDefinition, JsonNode eventFilter, String inputs, String cron,
                      String timeZone) {
    }

    @Override
    protected void execute(Session s) {
        JsonNode f = null;
        if (kind.equals("event")) {
            if (filter == null) {
                throw CliException.usage("--event-filter is required for --kind event");
            }
            f = TextArgs.jsonObject(filter, "--event-filter");
        } else if (kind.equals("cron") && cron == null) {
            throw CliException.usage("--cron is required for --kind cron");
        }
        send(s, "POST", ApiPaths.TRIGGERS, new NewTrigger(kind, agent, f, TextArgs.read(inputs, "--inputs"), cron, timeZone),
                t -> {
                    ctx.out().println("created trigger:");
                    SchedulerCommand.print(ctx, t);
                });
    }
}
