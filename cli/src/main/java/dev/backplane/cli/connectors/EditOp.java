package dev.backplane.cli.connectors;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.RequestBody;
import dev.backplane.cli.common.TextArgs;
import java.util.List;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code svc connector edit-op} */
@Command(name = "edit-op", description = "Override one operation [tenant_admin].")
final class EditOp extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<connector_id>") String id;

    @Parameters(index = "1", paramLabel = "<op_id>") String opId;

    @Option(names = "--custom-description", description = "description shown instead of the plugin's (\"\" clears; @path reads a file)")
    String customDescription;

    @ArgGroup(exclusive = true) EnableFlag enable;

    @ArgGroup(exclusive = true) ApprovalFlag approval;

    @Option(names = "--safety", paramLabel = "safe|caution|dangerous", description = "safety level") String safety;

    @Option(names = "--op-class", paramLabel = "read|write|credential_read",
            description = "operation class; a credential_read always requires approval, and enable-reads opens a "
                    + "read only when it is a GET or HEAD")
    String opClass;

    /** --enable | --disable */
    static final class EnableFlag {
        @Option(names = "--enable", required = true) boolean on;
        @Option(names = "--disable", required = true) boolean off;
    }

    /** --requires-approval | --no-requires-approval */
    static final class ApprovalFlag {
        @Option(names = "--requires-approval", required = true) boolean on;
        @Option(names = "--no-requires-approval", required = true) boolean off;
    }

    /** The body of PATCH .../operations/{op_id}: only what changes. */
    @RequestBody
    record OperationChange(String customDescription, Boolean isEnabled, Boolean requiresApproval, String safetyLevel,
                           String opClass) {
    }

    @Override
    protected void validate() {
        if (safety != null && !List.of("safe", "caution", "dangerous").contains(safety)) {
            throw CliException.usage("--safety must be safe, caution or dangerous, got '" + safety + "'");
        }
        if (opClass != null && !List.of("read", "write", "credential_read").contains(opClass)) {
            throw CliException.usage("--op-class must be read, write or credential_read, got '" + opClass + "'");
        }
        if (customDescription == null && enable == null && approval == null && safety == null && opClass == null) {
            throw CliException.usage("nothing to change: give --custom-description, --enable/--disable, "
                    + "--requires-approval/--no-requires-approval, --safety or --op-class");
        }
    }

    @Override
    protected void execute(Session s) {
        OperationChange body = new OperationChange(TextArgs.read(customDescription, "--custom-description"),
                enable == null ? null : enable.on, approval == null ? null : approval.on, safety, opClass);
        send(s, "PATCH", ApiPaths.expand(ApiPaths.CONNECTOR_OPERATION, id, opId), body,
                op -> ctx.out().println(op.path("op_id").asText() + ": " + (op.path("is_enabled").asBoolean()
                ? "enabled" : "disabled") + ", " + op.path("safety_level").asText() + (op.path("requires_approval")
                .asBoolean() ? ", requires approval" : "") + " — " + op.path("description").asText() + " [class "
                + ConnectorCommand.opClass(op) + (op.path("op_class").asText().equals("read")
                && !op.path("read_class").asBoolean() ? ", a " + op.path("method").asText("non-HTTP")
                + ": enable-reads leaves it off" : "") + "]"));
    }
}
