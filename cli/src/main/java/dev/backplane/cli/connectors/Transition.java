package dev.backplane.cli.connectors;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.ConfirmOption;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** Shared by enable, disable and enable-reads: a review action that needs --confirm; the verb names the action. */
abstract class Transition extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<connector_id>") String id;

    @Mixin ConfirmOption confirm;

    private final String consequence;

    Transition(String consequence) {
        this.consequence = consequence;
    }

    String action() {
        return spec.name();
    }

    @Override
    protected void validate() {
        confirm.require(action() + " " + id + ": " + consequence);
    }

    /** The query string after the action's route; none unless the verb has options to send. */
    String query() {
        return "";
    }

    @Override
    protected void execute(Session s) {
        send(s, "POST", ApiPaths.expand(ApiPaths.CONNECTOR, id) + "/" + action() + query(), null,
                r -> ctx.out().println(r.path("connector_id").asText() + ": " + r.path("message").asText()
                + " (status " + r.path("previous_status").asText() + " -> " + r.path("status").asText() + ")"));
    }
}
