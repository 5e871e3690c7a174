package dev.backplane.cli.memory;

import static dev.backplane.cli.memory.MemoryCommands.SCOPES;
import static dev.backplane.cli.memory.MemoryCommands.ttl;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.CliException;
import java.time.Instant;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code svc remember} */
@Command(name = "remember", description = "Write a memory entry (user-tenant scope unless --scope).")
public final class Remember extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<body>") String body;
    @Option(names = "--scope", description = "user, user-tenant (default), user-target, tenant [tenant_admin], target")
    String scope;
    @Option(names = "--slug", description = "natural key within the scope (default: made from the body)") String slug;
    @Option(names = "--tag", description = "tag (repeatable)") List<String> tags;
    @Option(names = "--target", description = "target name (target and user-target scopes)") String target;
    @Option(names = "--ttl", description = "lifetime: 30m, 36h, 7d, 2w or ISO 8601 (user scopes default to 7 days)")
    String ttl;
    @Option(names = "--persist", description = "never expires") boolean persist;

    @Override
    protected void validate() {
        if (scope != null && !SCOPES.contains(scope)) {
            throw CliException.usage("--scope must be one of " + SCOPES);
        }
        if (persist && ttl != null) {
            throw CliException.usage("--persist and --ttl exclude each other");
        }
        if (ttl != null) {
            ttl(ttl);
        }
    }

    @Override
    protected void execute(Session s) {
        JsonNode expiresAt = persist ? MemoryWrite.NEVER
                : ttl == null ? null : MemoryWrite.expiresAt(Instant.now().plus(ttl(ttl)));
        MemoryWrite req = new MemoryWrite(body, scope == null ? "user-tenant" : scope, slug, tags, target, expiresAt);
        send(s, "POST", ApiPaths.MEMORY, req, r -> ctx.out().println("remembered " + r.path("scope").asText() + "/"
                + r.path("slug").asText()
                + (r.path("expires_at").isNull() || r.path("expires_at").isMissingNode() ? " (no expiry)"
                : " (expires " + r.path("expires_at").asText() + ")")));
    }
}
