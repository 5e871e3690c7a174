package dev.backplane.cli.governance;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.common.CliContext;
import dev.backplane.cli.common.Tables;
import java.util.List;
import picocli.CommandLine.Command;

/** {@code svc audit ...}: read the audit log. Times take 30m, 24h, 7d, 2w or ISO 8601. */
@Command(name = "audit", description = "Read the audit log.",
        subcommands = {AuditMyRecent.class, AuditRecent.class, AuditQuery.class,
                AuditShow.class, AuditReplay.class, AuditWhoTouched.class, AuditReflex.class, AuditVerify.class,
                AuditStats.class, AuditRetention.class, AuditArchive.class})
public final class AuditCommand {

    static void table(CliContext ctx, JsonNode page) {
        List<List<String>> rows = Tables.rows(page.path("rows"), r -> List.of(r.path("occurred_at").asText(),
                r.path("result_status").asText(), r.path("principal").asText(),
                    r.path("op_id").asText(), r.path("target").isNull() ? "" : r.path("target").asText(),
                    r.path("work_ref").isNull() ? "" : r.path("work_ref").asText(), r.path("audit_id").asText()));
        Tables.print(ctx, "no audit rows", List.of("TIME", "STATUS", "PRINCIPAL", "OP", "TARGET", "WORK_REF",
                "AUDIT ID"), rows);
        if (!page.path("next_cursor").isNull() && !page.path("next_cursor").isMissingNode()) {
            ctx.out().println("more: --cursor " + page.path("next_cursor").asText());
        }
    }

    /** One audit row, a field a line ({@code svc audit show}). */
    static void printRow(CliContext ctx, JsonNode r) {
        r.properties().forEach(e -> {
            if (!e.getValue().isNull()) {
                ctx.out().printf("%-20s %s%n", e.getKey(), e.getValue().isTextual() ? e.getValue().asText()
                        : e.getValue().toString());
            }
        });
    }
}
