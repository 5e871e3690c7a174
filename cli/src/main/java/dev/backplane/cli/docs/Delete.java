package dev.backplane.cli.docs;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.Session;
import picocli.CommandLine.Command;

/** delete */
@Command(name = "delete", description = "Delete a disabled, tenant-owned collection [tenant_admin].")
final class Delete extends KeyCommand {
    @Override
    protected void execute(Session s) {
        JsonNode r = call(s, "DELETE", "");
        print(r, () -> ctx.out().println("deleted doc collection " + key));
    }
}
