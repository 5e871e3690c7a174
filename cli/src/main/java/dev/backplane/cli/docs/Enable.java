package dev.backplane.cli.docs;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.Session;
import picocli.CommandLine.Command;

/** enable */
@Command(name = "enable", description = "Return a collection to search [tenant_admin].")
final class Enable extends KeyCommand {
    @Override
    protected void execute(Session s) {
        JsonNode r = call(s, "POST", "/enable");
        print(r, () -> ctx.out().println("enabled doc collection " + key));
    }
}
