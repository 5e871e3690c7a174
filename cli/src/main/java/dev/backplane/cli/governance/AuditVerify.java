package dev.backplane.cli.governance;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.CliContext;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.ExitCodes;
import dev.backplane.cli.common.QueryString;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code svc audit verify}: re-computes the tenant's hash chain on the server and reports the first broken link;
 * with {@code --archive}, verifies an archive's files here, without the backplane. Exits 1 when anything is broken.
 */
@Command(name = "verify", description = "Verify the audit log's hash chain (or, with --archive, an archive file "
        + "offline); exits 1 and names the first broken row when anything was altered, deleted, inserted or reordered "
        + "[tenant_admin; --tenant: platform_admin].")
final class AuditVerify extends BackplaneCommand {
    @Option(names = "--since", description = "verify rows from this time (24h, 7d, ISO 8601)") String since;
    @Option(names = "--until") String until;
    @Option(names = "--archive", paramLabel = "<manifest>",
            description = "an archive's manifest file (audit-<name>.manifest.json), verified offline") Path archive;

    @Override
    protected boolean handledLocally() {
        if (archive == null) {
            return false;
        }
        JsonNode report = ArchiveCheck.verify(archive);
        print(report, () -> render(ctx, report));
        failIfBroken(report);
        return true;
    }

    @Override
    protected void execute(Session s) {
        JsonNode report = get(s, ApiPaths.AUDIT_VERIFY + QueryString.of().add("since", since).add("until", until),
                r -> render(ctx, r));
        failIfBroken(report);
    }

    static void render(CliContext ctx, JsonNode r) {
        ctx.out().println((r.path("ok").asBoolean() ? "ok" : "BROKEN") + ": " + r.path("rows_checked").asLong()
                + " rows checked (" + r.path("rows_per_second").asLong() + " rows/s)"
                + (r.has("seals_checked") ? ", " + r.path("seals_checked").asLong() + " seals"
                + (r.path("seals_signed").asBoolean() ? "" : " (not signed: audit.seal.key is not set)") : "")
                + (r.path("pending_rows").asLong() > 0 ? ", " + r.path("pending_rows").asLong() + " rows not chained yet" : ""));
        r.path("problems").forEach(p -> ctx.out().println("  " + p.path("kind").asText() + " at row "
                + p.path("seq").asLong() + (p.path("audit_id").isTextual() ? " " + p.path("audit_id").asText() : "")
                + (p.path("occurred_at").isTextual() ? " (" + p.path("occurred_at").asText() + ")" : "") + ": "
                + p.path("detail").asText()));
    }

    private static void failIfBroken(JsonNode report) {
        if (!report.path("ok").asBoolean()) {
            JsonNode first = report.path("problems").path(0);
            throw new CliException(ExitCodes.FAILED, "the audit log does not verify: " + first.path("kind").asText()
                    + (first.path("audit_id").isTextual() ? " row " + first.path("audit_id").asText() : ""));
        }
    }
}
