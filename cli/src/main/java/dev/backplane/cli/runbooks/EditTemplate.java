package dev.backplane.cli.runbooks;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code svc runbook edit-template} */
@Command(name = "edit-template", description = "Replace the draft's YAML [tenant_admin]; when the newest version is "
        + "published, this forks the next version as the draft (a published version never changes).")
final class EditTemplate extends BackplaneCommand {
    @Mixin TemplateYaml template;

    @Override
    protected void execute(Session s) {
        send(s, "PUT", ApiPaths.expand(ApiPaths.RUNBOOK_TEMPLATE, template.slug),
                new DraftTemplate.Draft(null, template.read(ctx)),
                RunbookCommand.template("draft: "));
    }
}
