package dev.backplane.cli.events;

import static dev.backplane.cli.events.EventSourceCommand.extras;
import static dev.backplane.cli.events.EventSourceCommand.secret;
import static dev.backplane.cli.events.EventSourceCommand.show;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.CliException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code svc event-source update} */
@Command(name = "update", description = "Change a source [tenant_admin]. A new secret (--secret-stdin or "
        + "SVC_EVENT_SOURCE_SECRET with --rotate) rotates it; the old one stays valid for --overlap-seconds.")
final class Update extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<slug-or-name>") String slug;
    @Option(names = "--name") String name;
    @Option(names = "--auth-strategy") String strategy;
    @Option(names = "--extras", paramLabel = "<json|@file>", description = "replaces the extras") String extras;
    @Option(names = "--secret-stdin", description = "rotate: the new secret from standard input") boolean secretStdin;
    @Option(names = "--rotate", description = "rotate: the new secret from SVC_EVENT_SOURCE_SECRET") boolean rotate;
    @Option(names = "--overlap-seconds", description = "how long the old secret stays valid (default 3600, 0..604800)")
    Integer overlap;

    @Override
    protected void execute(Session s) {
        JsonNode newExtras = extras == null ? null : extras(extras);
        String secret = null;
        if (secretStdin || rotate) {
            secret = secret(ctx, secretStdin);
            if (secret == null) {
                throw CliException.usage("--rotate needs SVC_EVENT_SOURCE_SECRET (or use --secret-stdin)");
            }
        } else if (overlap != null) {
            throw CliException.usage("--overlap-seconds goes with a new secret (--secret-stdin or --rotate)");
        }
        SourceChange body = new SourceChange(name, strategy, newExtras, secret, secret == null ? null : overlap);
        if (body.isEmpty()) {
            throw CliException.usage("nothing to change: give --name, --auth-strategy, --extras or a new secret");
        }
        send(s, "PATCH", ApiPaths.expand(ApiPaths.EVENT_SOURCE, slug), body, e -> {
            ctx.out().println("updated event source:");
            show(ctx, e);
        });
    }
}
