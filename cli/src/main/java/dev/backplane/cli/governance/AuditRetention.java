package dev.backplane.cli.governance;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc audit retention [<days>]}: shows the tenant's audit retention, or sets it. */
@Command(name = "retention", description = "Show the tenant's audit retention, or set it in days (at least the "
        + "deploy's minimum) [tenant_admin].")
final class AuditRetention extends BackplaneCommand {
    @Parameters(index = "0", arity = "0..1", paramLabel = "<days>") Integer days;

    @Override
    protected void execute(Session s) {
        if (days == null) {
            get(s, ApiPaths.AUDIT_RETENTION, this::show);
        } else {
            send(s, "PUT", ApiPaths.AUDIT_RETENTION, Map.of("days", days), this::show);
        }
    }

    private void show(com.fasterxml.jackson.databind.JsonNode r) {
        ctx.out().println("retention " + r.path("days").asInt() + " days (" + r.path("source").asText() + "; default "
                + r.path("default_days").asInt() + ", minimum " + r.path("minimum_days").asInt() + ")"
                + (r.path("archive_configured").asBoolean() ? "" : "; no archive directory: nothing is dropped"));
    }
}
