package dev.backplane.cli.governance;

import static dev.backplane.cli.governance.ApprovalsCommand.printOne;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.ExitCodes;
import dev.backplane.cli.connectors.Call;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code svc approvals approve} */
@Command(name = "approve", description = "Approve and run the parked call [tenant_admin; not your own request].")
final class Approve extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<id>") String id;
    @Option(names = "--reason") String reason;
    @Option(names = "--break-glass", description = "approve your own request in an emergency (needs --reason; audited)")
    boolean breakGlass;

    @Override
    protected void validate() {
        if (breakGlass && (reason == null || reason.isBlank())) {
            throw CliException.usage("--break-glass needs --reason");
        }
    }

    @Override
    protected void execute(Session s) {
        Decision body = new Decision(reason, breakGlass ? true : null);
        // the released call runs within this request: a composite (Argo CD's sync and wait) may take many minutes
        JsonNode answer = s.client().call("POST", ApiPaths.expand(ApiPaths.APPROVAL, id) + "/approve", body,
                Call.LONGEST_CALL).json();
        print(answer, () -> {
            printOne(ctx, answer.path("approval"));
            JsonNode env = answer.path("result");
            ctx.out().println("result: " + env.path("status").asText() + (env.path("error").isNull() ? ""
                    : " — " + env.path("error").asText()));
            if (!env.path("result").isNull()) {
                ctx.out().println(env.path("result").toPrettyString());
            }
        });
        if (!answer.path("result").path("status").asText().equals("ok")) {
            throw new CliException(ExitCodes.FAILED, "the approved call did not succeed: "
                    + answer.path("result").path("status").asText());
        }
    }
}
