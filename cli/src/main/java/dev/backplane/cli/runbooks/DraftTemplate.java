package dev.backplane.cli.runbooks;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.RequestBody;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code svc runbook draft-template} */
@Command(name = "draft-template", description = "The first draft (version 1) of a new template from a YAML file "
        + "[tenant_admin]. YAML problems are listed with their line and column.")
final class DraftTemplate extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<slug>") String slug;
    @Mixin TemplateYaml yaml;

    @RequestBody
    record Draft(String slug, String yaml) {
    }

    @Override
    protected void execute(Session s) {
        send(s, "POST", ApiPaths.RUNBOOK_TEMPLATES, new Draft(slug, yaml.read(ctx)), RunbookCommand.template("drafted: "));
    }
}
