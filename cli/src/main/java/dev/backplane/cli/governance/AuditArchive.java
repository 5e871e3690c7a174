package dev.backplane.cli.governance;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.ExitCodes;
import dev.backplane.cli.common.Tables;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc audit archive ...}: the audit log's archives [platform_admin]. */
@Command(name = "archive", description = "The audit log's archives: list, create, verify, restore [platform_admin].",
        subcommands = {AuditArchive.ListArchives.class, AuditArchive.Create.class, AuditArchive.Verify.class,
                AuditArchive.Restore.class})
final class AuditArchive {

    @Command(name = "list", description = "List the archives.")
    static final class ListArchives extends BackplaneCommand {
        @Override
        protected void execute(Session s) {
            get(s, ApiPaths.AUDIT_ARCHIVES, r -> Tables.print(ctx, "no archives", List.of("NAME", "PARTITION", "TO",
                    "ROWS", "BYTES", "VERIFIED", "DROPPED"), Tables.rows(r.path("archives"), a -> List.of(
                    a.path("name").asText(), a.path("partition").asText(), a.path("to").asText(), a.path("rows").asText(),
                    a.path("bytes").asText(), a.path("verified_at").asText(""), a.path("dropped_at").asText("")))));
        }
    }

    @Command(name = "create", description = "Archive a partition now (it is not dropped).")
    static final class Create extends BackplaneCommand {
        @Parameters(index = "0", paramLabel = "<partition>") String partition;

        @Override
        protected void execute(Session s) {
            send(s, "POST", ApiPaths.AUDIT_ARCHIVES, Map.of("partition", partition), r -> ctx.out().println("archived "
                    + r.path("partition").asText() + " as " + r.path("name").asText() + ": " + r.path("rows").asLong()
                    + " rows, sha256 " + r.path("sha256").asText()));
        }
    }

    @Command(name = "verify", description = "Verify an archive's files on the server (exits 1 when broken); "
            + "`svc audit verify --archive <manifest>` verifies a copy here.")
    static final class Verify extends BackplaneCommand {
        @Parameters(index = "0", paramLabel = "<archive>") String name;

        @Override
        protected void execute(Session s) {
            JsonNode r = send(s, "POST", ApiPaths.expand(ApiPaths.AUDIT_ARCHIVE, name) + "/verify", Map.of(),
                    report -> AuditVerify.render(ctx, report));
            if (!r.path("ok").asBoolean()) {
                throw new CliException(ExitCodes.FAILED, "archive " + name + " does not verify");
            }
        }
    }

    @Command(name = "restore", description = "Restore an archive into a read-only table for investigation.")
    static final class Restore extends BackplaneCommand {
        @Parameters(index = "0", paramLabel = "<archive>") String name;

        @Override
        protected void execute(Session s) {
            send(s, "POST", ApiPaths.expand(ApiPaths.AUDIT_ARCHIVE, name) + "/restore", Map.of(), r -> ctx.out().println(
                    "restored " + r.path("rows").asLong() + " rows into table " + r.path("table").asText()
                            + (r.path("verified").path("ok").asBoolean() ? " (archive verifies)" : " (ARCHIVE DOES NOT VERIFY)")));
        }
    }
}
