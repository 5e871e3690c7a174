package dev.backplane.cli.governance;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc audit show} */
@Command(name = "show", description = "One audit row.")
final class AuditShow extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<audit-id>") String id;

    @Override
    protected void execute(Session s) {
        get(s, ApiPaths.expand(ApiPaths.AUDIT_ROW, id), r -> r.properties().forEach(e -> {
            if (!e.getValue().isNull()) {
                ctx.out().printf("%-20s %s%n", e.getKey(), e.getValue().isTextual() ? e.getValue().asText()
                        : e.getValue().toString());
            }
        }));
    }
}
