package dev.backplane.cli.runbooks;

import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.KeyedCall;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc runbook publish-template} */
@Command(name = "publish-template", description = "Publish the draft [tenant_admin]; runs start from it from now on.")
final class PublishTemplate extends KeyedCall {
    @Parameters(index = "0", paramLabel = "<slug>") String slug;

    PublishTemplate() {
        super("POST " + ApiPaths.RUNBOOK_TEMPLATE + "/publish", RunbookCommand.template("published: "));
    }
}
