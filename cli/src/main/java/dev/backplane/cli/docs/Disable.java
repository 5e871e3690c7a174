package dev.backplane.cli.docs;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.Session;
import picocli.CommandLine.Command;

/** disable */
@Command(name = "disable", description = "Hide a collection from search [tenant_admin].")
final class Disable extends KeyCommand {
    @Override
    protected void execute(Session s) {
        JsonNode r = call(s, "POST", "/disable");
        print(r, () -> ctx.out().println("disabled doc collection " + key));
    }
}
