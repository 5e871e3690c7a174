package dev.backplane.cli.runbooks;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.RequestBody;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code svc runbook draft-template} */
@Command(name = "draft-template", description = "The first draft (version 1) of a new template from a YAML file "
        + "[tenant_admin]. YAML problems are listed with their line and column.")
final class DraftTemplate extends BackplaneCommand {
    @Mixin TemplateYaml template;

    @RequestBody
    record Draft(String slug, String yaml) {
    }

    @Override
    protected void execute(Session s) {
        send(s, "POST", ApiPaths.RUNBOOK_TEMPLATES, new Draft(template.slug, template.read(ctx)),
                RunbookCommand.template("drafted: "));
    }
}
