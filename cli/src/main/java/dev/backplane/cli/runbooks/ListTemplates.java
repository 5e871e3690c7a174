package dev.backplane.cli.runbooks;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.Paging;
import dev.backplane.cli.common.QueryString;
import dev.backplane.cli.common.Tables;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code svc runbook list-templates} */
@Command(name = "list-templates", description = "Runbook template versions, newest version first.")
final class ListTemplates extends BackplaneCommand {
    @Mixin Paging paging;
    @Option(names = "--status", description = "draft, published or deprecated") String status;
    @Option(names = "--target-kind", description = "only templates for this kind of target") String targetKind;

    @Override
    protected void execute(Session s) {
        get(s, ApiPaths.RUNBOOK_TEMPLATES + QueryString.of().add(paging).add("status", status)
                .add("target_kind", targetKind), page -> Tables.print(ctx, "no runbook templates",
                List.of("SLUG", "VERSION", "STATUS", "TARGET_KIND", "STEPS", "TITLE"), Tables.rows(page.path("templates"),
                        t -> List.of(t.path("slug").asText(), t.path("version").asText(), t.path("status").asText(),
                                t.path("target_kind").asText(""), t.path("steps").asText(), t.path("title").asText()))));
    }
}
