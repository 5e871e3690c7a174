package dev.backplane.cli.governance;

import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.KeyedCall;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc audit show} */
@Command(name = "show", description = "One audit row.")
final class AuditShow extends KeyedCall {
    @Parameters(index = "0", paramLabel = "<audit-id>") String id;

    AuditShow() {
        super("GET " + ApiPaths.AUDIT_ROW, AuditCommand::printRow);
    }
}
