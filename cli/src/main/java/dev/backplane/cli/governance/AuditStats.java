package dev.backplane.cli.governance;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import picocli.CommandLine.Command;

/** {@code svc audit stats} */
@Command(name = "stats", description = "The audit log's chain, seals and retention for the tenant; for a platform_admin "
        + "also partitions, archives and SIEM stream lag [tenant_admin].")
final class AuditStats extends BackplaneCommand {

    @Override
    protected void execute(Session s) {
        get(s, ApiPaths.AUDIT_STATS, r -> {
            r.path("tenant").properties().forEach(e -> ctx.out().printf("%-20s %s%n", e.getKey(),
                    e.getValue().isTextual() ? e.getValue().asText() : e.getValue().toString()));
            ctx.out().printf("%-20s %s%n", "chain_lag_seconds", r.path("chain_lag_seconds").asText());
            r.path("partitions").forEach(p -> ctx.out().printf("partition %-24s %s .. %s  ~%d rows  %d bytes%n",
                    p.path("name").asText(), p.path("from").isNull() ? "(all before)" : p.path("from").asText(),
                    p.path("to").asText(), p.path("estimated_rows").asLong(), p.path("bytes").asLong()));
            if (r.has("default_partition_rows")) {
                ctx.out().println("default partition rows: " + r.path("default_partition_rows").asLong());
            }
            r.path("archives").forEach(a -> ctx.out().printf("archive %-12s %d rows  %s%s%n", a.path("name").asText(),
                    a.path("rows").asLong(), a.path("verified_at").isNull() ? "not verified" : "verified " + a.path("verified_at").asText(),
                    a.path("dropped_at").isNull() ? "" : ", partition dropped " + a.path("dropped_at").asText()));
            if (r.has("stream")) {
                ctx.out().println("stream " + r.path("stream"));
            }
        });
    }
}
