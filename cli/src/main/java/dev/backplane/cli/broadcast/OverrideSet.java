package dev.backplane.cli.broadcast;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.RequestBody;
import dev.backplane.cli.common.Tables;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code svc broadcast overrides set} */
@Command(name = "set", description = "Create an override, or change the detail of the one with the same pattern "
        + "and scope [tenant_admin].")
final class OverrideSet extends BackplaneCommand {
    @Option(names = "--op-id-pattern", required = true, description = "a glob over op ids (* ? [...]; no regex)")
    String pattern;
    @Option(names = "--detail", required = true, description = "full or aggregate") String detail;
    @Option(names = "--scope-field", description = "namespace or target_name (omit for an op-wide rule)")
    String scopeField;
    @Option(names = "--scope-value", description = "the namespace or target name (required with --scope-field)")
    String scopeValue;

    @RequestBody
    record Body(String opIdPattern, String detail, String scopeField, String scopeValue) {
    }

    @Override
    protected void execute(Session s) {
        send(s, "POST", ApiPaths.BROADCAST_OVERRIDES, new Body(pattern, detail, scopeField, scopeValue), o ->
                Tables.print(ctx, OverridesCommand.HEADER, List.of(OverridesCommand.row(o))));
    }
}
