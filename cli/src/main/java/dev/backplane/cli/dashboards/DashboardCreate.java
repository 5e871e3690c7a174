package dev.backplane.cli.dashboards;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.RequestBody;
import dev.backplane.cli.common.TextArgs;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code svc dashboard create} */
@Command(name = "create", description = "Create a dashboard [tenant_admin; --tenant platform_admin only].")
final class DashboardCreate extends BackplaneCommand {
    @Option(names = "--name", required = true, description = "unique in the tenant") String name;
    @Option(names = "--description") String description;
    @Option(names = "--investigator-prompt", paramLabel = "<text|@file>", description = "at most 4096 characters")
    String prompt;
    @Option(names = "--investigator-agent", paramLabel = "<agent-definition>",
            description = "an agent definition run with the prompt and the failing sensors' evidence on notification")
    String agent;
    @Option(names = "--notify-email", paramLabel = "<a@x,b@y>", description = "recipients (unset: no mail); each must be "
            + "allowed by the tenant's mail-recipient policy")
    String notifyEmail;
    @Option(names = "--notify-min-state", description = "degraded or critical (default critical)")
    String notifyMinState;
    @Option(names = "--sensor-id", paramLabel = "<uuid>", description = "a member sensor (repeatable)")
    List<String> sensorIds;

    @RequestBody
    record NewDashboard(String name, String description, String investigatorPrompt, String investigatorAgent,
                        String notifyEmail, String notifyMinState, List<String> sensorIds) {
    }

    @Override
    protected void execute(Session s) {
        send(s, "POST", ApiPaths.DASHBOARDS, new NewDashboard(name, description, TextArgs.read(prompt,
                "--investigator-prompt"), agent, notifyEmail, notifyMinState, sensorIds == null ? List.of() : sensorIds),
                d -> {
                    ctx.out().println("created dashboard:");
                    DashboardCommand.print(ctx, d);
                });
    }
}
