package dev.backplane.cli.broadcast;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code svc broadcast watch} */
@Command(name = "watch", description = "Tail the tenant's activity as it happens (server-sent events), one line an "
        + "event (--json: one JSON object a line). Reconnects after the last event shown when the stream drops; "
        + "Ctrl-C ends it.")
final class Watch extends BackplaneCommand {
    @Mixin ActivityFilter filter;
    @Option(names = "--count", paramLabel = "1..100000", description = "stop after this many events (1..100000)")
    Integer count;
    @Option(names = "--after", paramLabel = "<stream-id>", description = "first replay the events after this stream id")
    String after;

    @Override
    protected void execute(Session s) {
        Watcher.tail(ctx, s, options.format(), filter.opClass, filter.principal, filter.target, count, after);
    }
}
