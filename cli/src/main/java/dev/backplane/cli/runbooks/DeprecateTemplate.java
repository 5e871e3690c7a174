package dev.backplane.cli.runbooks;

import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.KeyedCall;
import dev.backplane.cli.common.RequestBody;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code svc runbook deprecate-template} */
@Command(name = "deprecate-template", description = "Deprecate one published version [tenant_admin]: no new run "
        + "starts from it; runs in flight finish.")
final class DeprecateTemplate extends KeyedCall {
    @Parameters(index = "0", paramLabel = "<slug>") String slug;
    @Option(names = "--version", required = true, description = "the published version") Integer version;

    @RequestBody
    record Deprecate(Integer version) {
    }

    DeprecateTemplate() {
        super("POST " + ApiPaths.RUNBOOK_TEMPLATE + "/deprecate", RunbookCommand.template("deprecated: "));
    }

    @Override
    protected Object body() {
        return new Deprecate(version);
    }
}
