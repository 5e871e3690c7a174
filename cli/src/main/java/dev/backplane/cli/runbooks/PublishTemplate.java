package dev.backplane.cli.runbooks;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.CliContext;
import dev.backplane.cli.common.KeyedCall;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc runbook publish-template} */
@Command(name = "publish-template", description = "Publish the draft [tenant_admin]; runs start from it from now on.")
final class PublishTemplate extends KeyedCall {
    @Parameters(index = "0", paramLabel = "<slug>") String slug;

    PublishTemplate() {
        super("POST " + ApiPaths.RUNBOOK_TEMPLATE + "/publish", PublishTemplate::print);
    }

    private static void print(CliContext ctx, JsonNode t) {
        ctx.out().print("published: ");
        RunbookCommand.printTemplate(ctx, t);
    }
}
