package dev.backplane.cli.connectors;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.RequestBody;
import dev.backplane.cli.common.TextArgs;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code svc connector edit-group} */
@Command(name = "edit-group", description = "Rename a group or change its when-to-use hint [tenant_admin].")
final class EditGroup extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<connector_id>") String id;

    @Parameters(index = "1", paramLabel = "<group_key>") String group;

    @Option(names = "--name", description = "display name (@path reads a file)") String name;

    @Option(names = "--when-to-use", description = "hint for agents (@path reads a file)") String whenToUse;

    /** The body of PATCH .../groups/{group_key}: only what changes. */
    @RequestBody
    record GroupChange(String name, String whenToUse) {
    }

    @Override
    protected void validate() {
        if (name == null && whenToUse == null) {
            throw CliException.usage("nothing to change: give --name or --when-to-use");
        }
    }

    @Override
    protected void execute(Session s) {
        GroupChange body = new GroupChange(TextArgs.read(name, "--name"), TextArgs.read(whenToUse, "--when-to-use"));
        send(s, "PATCH", ApiPaths.expand(ApiPaths.CONNECTOR_GROUP, id, group), body,
                g -> ctx.out().println(g.path("group_key").asText() + ": " + g.path("display_name").asText()
                + " — " + g.path("when_to_use").asText()));
    }
}
