package dev.backplane.cli.broadcast;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.QueryString;
import dev.backplane.cli.common.Tables;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code svc broadcast recent} */
@Command(name = "recent", description = "What happened in the tenant, newest first.")
final class Recent extends BackplaneCommand {
    @Option(names = "--active-only", description = "only open announcement claims") boolean activeOnly;
    @Option(names = "--actor-sub", description = "only events caused by this sub") String actorSub;
    @Option(names = "--cursor", description = "a stream id (next page) or an ISO 8601 time: events before it")
    String cursor;
    @Option(names = "--limit", paramLabel = "1..1000", description = "default 100") Integer limit;
    @Mixin ActivityFilter filter;
    @Option(names = "--work-ref", description = "only events of this change ticket") String workRef;

    @Override
    protected void execute(Session s) {
        get(s, ApiPaths.BROADCAST_RECENT + QueryString.of().add("active_only", activeOnly).add("actor_sub", actorSub)
                .add("cursor", cursor).add("limit", limit).add("op_class", filter.opClass)
                .add("principal", filter.principal).add("target", filter.target).add("work_ref", workRef), page -> {
                    Tables.print(ctx, "no activity", BroadcastCommand.HEADER,
                            Tables.rows(page.path("events"), BroadcastCommand::row));
                    if (page.hasNonNull("next_cursor")) {
                        ctx.out().println("more: svc broadcast recent --cursor " + page.path("next_cursor").asText());
                    }
                });
    }
}
