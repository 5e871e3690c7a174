package dev.backplane.cli.runbooks;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.QueryString;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code svc runbook show-template} */
@Command(name = "show-template", description = "One template version (default the newest) with its YAML.")
final class ShowTemplate extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<slug>") String slug;
    @Option(names = "--version", description = "the version (default the newest)") Integer version;

    @Override
    protected void execute(Session s) {
        get(s, ApiPaths.expand(ApiPaths.RUNBOOK_TEMPLATE, slug) + QueryString.of().add("version", version), t -> {
            RunbookCommand.printTemplate(ctx, t);
            ctx.out().println();
            ctx.out().print(t.path("source").asText());
        });
    }
}
