package dev.backplane.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.Http;
import picocli.CommandLine.Command;

/** {@code svc status}: is the backplane reachable, which version, and who the caller is there. */
@Command(name = "status", description = "Show the backplane's reachability and version, and who you are there.")
final class StatusCommand extends BackplaneCommand {

    @Override
    protected void execute(Session session) {
        {
            JsonNode info = session.client().getPublic(ApiPaths.INFO).json();
            JsonNode me = session.client().get(ApiPaths.WHOAMI).json();
            if (options.json()) {
                ObjectNode both = Http.JSON.createObjectNode();
                both.put("backplane", session.backplane().toString());
                both.put("reachable", true);
                both.set("info", info);
                both.set("whoami", me);
                ctx.out().println(both.toPrettyString());
                return;
            }
            row("backplane", session.backplane() + "  (reachable)");
            row("version", info.path("version").asText() + " (commit " + info.path("git_commit").asText() + ")");
            row("user", me.path("username").asText(me.path("sub").asText()) + "  (sub " + me.path("sub").asText() + ")");
            row("tenant", me.path("tenant_id").asText()
                    + (me.path("tenant_id").equals(me.path("home_tenant_id")) ? "" : "  (acting; home "
                    + me.path("home_tenant_id").asText("none") + ")"));
            row("role", me.path("tenant_role").asText() + (me.path("platform_admin").asBoolean() ? " + platform_admin" : ""));
            row("principal", me.path("principal_kind").asText());
        }
    }

    private void row(String key, String value) {
        ctx.out().printf("%-10s %s%n", key, value);
    }
}
