package dev.backplane.cli.runbooks;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.CliContext;
import dev.backplane.cli.common.KeyedCall;
import dev.backplane.cli.common.QueryString;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code svc runbook show-template} */
@Command(name = "show-template", description = "One template version (default the newest) with its YAML.")
final class ShowTemplate extends KeyedCall {
    @Parameters(index = "0", paramLabel = "<slug>") String slug;
    @Option(names = "--version", description = "the version (default the newest)") Integer version;

    ShowTemplate() {
        super("GET " + ApiPaths.RUNBOOK_TEMPLATE, ShowTemplate::print);
    }

    @Override
    protected String query() {
        return QueryString.of().add("version", version).toString();
    }

    private static void print(CliContext ctx, JsonNode t) {
        RunbookCommand.printTemplate(ctx, t);
        ctx.out().println();
        ctx.out().print(t.path("source").asText());
    }
}
