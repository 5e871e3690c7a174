package dev.backplane.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.backplane.cli.auth.Oidc;
import dev.backplane.cli.broadcast.Watcher;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.BuildInfo;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.ExitCodes;
import dev.backplane.cli.common.Http;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code svc status}: is the backplane reachable, which version, who the caller is there, and what
 * happened in the tenant in the last hour; with {@code --watch} it then tails the activity feed.
 */
@Command(name = "status", description = "Show the backplane's reachability and version, who you are there, and the "
        + "tenant's activity of the last hour; --watch then tails the activity as it happens.")
final class StatusCommand extends BackplaneCommand {
    @Option(names = {"--watch", "-w"}, description = "tail the tenant's activity feed (Ctrl-C ends it)")
    boolean watch;
    @Option(names = "--op-class", description = "with --watch: read, write, credential_read or other") String opClass;
    @Option(names = "--principal", description = "with --watch: only events of this principal (a sub)")
    String principal;
    @Option(names = "--target", description = "with --watch: only events on this target") String target;

    @Override
    protected void validate() {
        if (!watch && (opClass != null || principal != null || target != null)) {
            throw CliException.usage("--op-class, --principal and --target filter --watch; add --watch");
        }
    }

    @Override
    protected void execute(Session session) {
        JsonNode info = session.client().getPublic(ApiPaths.INFO).json();
        JsonNode me = session.client().get(ApiPaths.WHOAMI).json();
        Optional<JsonNode> activity = activity(session);
        if (options.json()) {
            ObjectNode all = Http.JSON.createObjectNode();
            all.put("backplane", session.backplane().toString());
            all.put("context", session.context().orElse(null));
            all.put("reachable", true);
            all.set("info", info);
            all.set("whoami", me);
            activity.ifPresent(a -> all.set("activity", a));
            all.put("login", login(session));
            options.output().print(ctx.out(), all);
        } else {
            row("context", session.context().orElse("(none: the backplane named by --backplane or SVC_BACKPLANE)"));
            row("backplane", session.backplane() + "  (reachable)");
            row("version", info.path("version").asText() + " (API level " + info.path("api_level").asText("unknown")
                    + ", commit " + info.path("git_commit").asText() + "; this CLI " + BuildInfo.version() + ", API level "
                    + BuildInfo.apiLevel() + ")");
            row("user", me.path("username").asText(me.path("sub").asText()) + "  (sub " + me.path("sub").asText() + ")");
            row("tenant", me.path("tenant_id").asText()
                    + (me.path("tenant_id").equals(me.path("home_tenant_id")) ? "" : "  (acting; home "
                    + me.path("home_tenant_id").asText("none") + ")"));
            row("role", me.path("tenant_role").asText() + (me.path("platform_admin").asBoolean() ? " + platform_admin" : ""));
            row("principal", me.path("principal_kind").asText());
            row("login", login(session));
            row("activity", activity.map(StatusCommand::counts).orElse("(needs the operator role to see)"));
        }
        ctx.out().flush();
        if (watch) {
            Watcher.tail(ctx, session, options.format(), opClass, principal, target, null, null);
        }
    }

    /** How this login lasts: SVC_TOKEN, client credentials, or a refresh token and until when it holds if unused. */
    private String login(Session session) {
        if (ctx.env("SVC_TOKEN").isPresent()) {
            return "SVC_TOKEN (a token svc does not refresh)";
        }
        return session.tokenStore().load(session.identity()).map(t -> {
            if (t.clientCredentials()) {
                return "client credentials of " + t.clientId() + " (svc mints a new token when one expires)";
            }
            String until = Oidc.refreshExpiry(t).map(i -> " until " + i + " unless used before then").orElse("");
            return (t.offline() ? "offline token" : "session token (ends with your identity-provider session)")
                    + ", refreshed as used" + until;
        }).orElse("not logged in");
    }

    /** The last hour's counts; empty when the caller's role may not read the feed. */
    private static Optional<JsonNode> activity(Session session) {
        try {
            return Optional.of(session.client().get(ApiPaths.BROADCAST_SUMMARY + "?since=1h").json());
        } catch (CliException e) {
            if (e.exitCode() == ExitCodes.DENIED) {
                return Optional.empty();
            }
            throw e;
        }
    }

    /** "12 in the last hour: dispatch 10 (ok 9, error 1), ingest 2 (accepted 2); 1 active claim". */
    static String counts(JsonNode a) {
        List<String> kinds = new ArrayList<>();
        a.path("by_kind").properties().forEach(k -> {
            long n = 0;
            List<String> outcomes = new ArrayList<>();
            for (var o : k.getValue().properties()) {
                n += o.getValue().asLong();
                outcomes.add(o.getKey() + " " + o.getValue().asLong());
            }
            kinds.add(k.getKey() + " " + n + " (" + String.join(", ", outcomes) + ")");
        });
        long claims = a.path("active_claims").asLong();
        return a.path("total").asLong() + " events in the last hour" + (kinds.isEmpty() ? "" : ": "
                + String.join(", ", kinds)) + "; " + claims + " active claim" + (claims == 1 ? "" : "s");
    }

    private void row(String key, String value) {
        ctx.out().printf("%-10s %s%n", key, value);
    }
}
