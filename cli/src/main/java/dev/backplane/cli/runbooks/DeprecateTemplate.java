package dev.backplane.cli.runbooks;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.RequestBody;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code svc runbook deprecate-template} */
@Command(name = "deprecate-template", description = "Deprecate one published version [tenant_admin]: no new run "
        + "starts from it; runs in flight finish.")
final class DeprecateTemplate extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<slug>") String slug;
    @Option(names = "--version", required = true, description = "the published version") Integer version;

    @RequestBody
    record Deprecate(Integer version) {
    }

    @Override
    protected void execute(Session s) {
        send(s, "POST", ApiPaths.expand(ApiPaths.RUNBOOK_TEMPLATE, slug) + "/deprecate", new Deprecate(version),
                RunbookCommand.template("deprecated: "));
    }
}
