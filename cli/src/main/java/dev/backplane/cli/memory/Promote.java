package dev.backplane.cli.memory;

import static dev.backplane.cli.memory.MemoryCommands.SCOPES;
import static dev.backplane.cli.memory.MemoryCommands.scopeSlug;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.RequestBody;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code svc promote} */
@Command(name = "promote", description = "Promote <scope>/<slug> to a strictly broader scope.")
public final class Promote extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<scope>/<slug>") String ref;
    @Option(names = "--to", required = true, description = "user-tenant, user, target or tenant (broader)") String to;
    @Option(names = "--move", description = "delete the source in the same transaction") boolean move;
    @Option(names = "--target", description = "target name when the entry exists for several") String target;

    /** The body of POST .../promote. */
    @RequestBody
    record Promotion(String to, boolean move, String targetName) {
    }

    @Override
    protected void validate() {
        scopeSlug(ref);
        if (!SCOPES.contains(to)) {
            throw CliException.usage("--to must be one of " + SCOPES);
        }
    }

    @Override
    protected void execute(Session s) {
        String[] ss = scopeSlug(ref);
        Promotion req = new Promotion(to, move, target);
        send(s, "POST", ApiPaths.expand(ApiPaths.MEMORY_PROMOTE, ss[0], ss[1]), req,
                r -> ctx.out().println("promoted to " + r.path("scope").asText() + "/" + r.path("slug").asText()
                + (move ? " (source removed)" : "")));
    }
}
