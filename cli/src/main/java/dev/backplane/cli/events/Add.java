package dev.backplane.cli.events;

import static dev.backplane.cli.events.EventSourceCommand.extras;
import static dev.backplane.cli.events.EventSourceCommand.secret;
import static dev.backplane.cli.events.EventSourceCommand.show;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.CliException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code svc event-source add} (alias create), with an optional slug */
@Command(name = "add", aliases = "create", description = "Register an event source [tenant_admin]. The secret comes "
        + "from standard input (--secret-stdin) or SVC_EVENT_SOURCE_SECRET, never from a flag.")
final class Add extends BackplaneCommand {
    @Parameters(index = "0", arity = "0..1", paramLabel = "<slug>",
            description = "the URL routing key, 16-64 of a-z 0-9 - (default: generated, high-entropy)")
    String slug;
    @Option(names = "--name", required = true, description = "unique in the tenant") String name;
    @Option(names = "--kind", required = true, description = "alertrouter, dashalert, infraops, registry, generic-json")
    String kind;
    @Option(names = "--auth-strategy", required = true, description = "hmac-sha256, static-header or basic")
    String strategy;
    @Option(names = "--secret-stdin", description = "read the secret from standard input") boolean secretStdin;
    @Option(names = "--extras", paramLabel = "<json|@file>", description = "max_body_bytes, rate_per_second, burst, "
            + "replay_window_seconds, signature_header, timestamp_header, id_header, secret_header, basic_username, "
            + "require_timestamp")
    String extras;

    @Override
    protected void execute(Session s) {
        String secret = secret(ctx, secretStdin);
        if (secret == null) {
            throw CliException.usage("no secret: pass --secret-stdin and pipe it in, or set SVC_EVENT_SOURCE_SECRET");
        }
        NewSource body = new NewSource(slug, name, kind, strategy, secret, extras == null ? null : extras(extras));
        send(s, "POST", ApiPaths.EVENT_SOURCES, body, created -> {
            ctx.out().println("created event source:");
            show(ctx, created);
        });
    }
}
