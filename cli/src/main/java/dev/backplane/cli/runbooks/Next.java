package dev.backplane.cli.runbooks;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.ExitCodes;
import dev.backplane.cli.common.RequestBody;
import java.time.Duration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code svc runbook next} */
@Command(name = "next", description = "Move a run on [assignee or tenant_admin]: without --verify-response, run the "
        + "current step's operation (or re-check its approval); with it, answer the step's verification question: yes "
        + "(next step), no (stop here), escalate (another tenant_admin decides).",
        exitCodeListHeading = ExitCodes.HELP_HEADING, exitCodeList = {ExitCodes.HELP_OK, ExitCodes.HELP_FAILED,
                ExitCodes.HELP_USAGE, ExitCodes.HELP_DENIED, ExitCodes.HELP_PARKED, ExitCodes.HELP_UNREACHABLE,
                ExitCodes.HELP_NOT_LOGGED_IN})
final class Next extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<run-id>") String runId;
    @Option(names = "--verify-response", description = "yes, no or escalate") String verifyResponse;
    @Option(names = "--reason", description = "why (recorded with a no or an escalation)") String reason;
    @Option(names = "--step", description = "the step you answer (default: the step the run shows now); if the run "
            + "has moved on, nothing happens (409 step_changed)")
    Integer step;

    @RequestBody
    record Body(String verifyResponse, String reason, Integer step) {
    }

    @Override
    protected void validate() {
        if (verifyResponse != null && !java.util.List.of("yes", "no", "escalate").contains(verifyResponse)) {
            throw CliException.usage("--verify-response must be yes, no or escalate, got '" + verifyResponse + "'");
        }
    }

    @Override
    protected void execute(Session s) {
        Integer answering = step;
        if (answering == null && verifyResponse != null) {
            // pin the answer to the step shown now: a retry or someone else's answer meanwhile cannot carry it on
            JsonNode now = s.client().get(ApiPaths.expand(ApiPaths.RUNBOOK_RUN, runId)).json();
            answering = now.path("current_step").has("index") ? now.path("current_step").path("index").asInt() : null;
        }
        var run = s.client().call("POST", ApiPaths.expand(ApiPaths.RUNBOOK_RUN, runId) + "/next",
                new Body(verifyResponse, reason, answering), Duration.ofMinutes(5)).json();
        print(run, () -> RunbookCommand.printRun(ctx, run));
        RunbookCommand.exitIfParked(run);
    }
}
