package dev.backplane.cli.memory;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.common.RequestBody;
import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.Limits;
import dev.backplane.cli.common.QueryString;
import dev.backplane.cli.common.Tables;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code svc remember / recall / list / promote}: scoped memory. */
public final class MemoryCommands {

    static final List<String> SCOPES = List.of("user", "user-tenant", "user-target", "tenant", "target");

    private MemoryCommands() {
    }

    /** 7d, 36h, 30m, 2w or an ISO 8601 duration (P7D, PT12H). */
    static Duration ttl(String text) {
        var m = java.util.regex.Pattern.compile("(\\d{1,6})([smhdw])").matcher(text.trim());
        if (m.matches()) {
            long n = Long.parseLong(m.group(1));
            return switch (m.group(2)) {
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                case "d" -> Duration.ofDays(n);
                default -> Duration.ofDays(7 * n);
            };
        }
        try {
            return Duration.parse(text.trim());
        } catch (DateTimeParseException e) {
            throw CliException.usage("--ttl takes 30m, 36h, 7d, 2w or an ISO 8601 duration such as P7D, got '" + text + "'");
        }
    }

    static String[] scopeSlug(String ref) {
        int slash = ref.indexOf('/');
        if (slash <= 0 || !SCOPES.contains(ref.substring(0, slash))) {
            throw CliException.usage("name the entry as <scope>/<slug> with scope one of " + SCOPES + ", got '" + ref + "'");
        }
        return new String[] {ref.substring(0, slash), ref.substring(slash + 1)};
    }

    /** remember */
    @Command(name = "remember", description = "Write a memory entry (user-tenant scope unless --scope).")
    public static final class Remember extends BackplaneCommand {
        @Parameters(index = "0", paramLabel = "<body>")
        String body;
        @Option(names = "--scope", description = "user, user-tenant (default), user-target, tenant [tenant_admin], target")
        String scope;
        @Option(names = "--slug", description = "natural key within the scope (default: made from the body)")
        String slug;
        @Option(names = "--tag", description = "tag (repeatable)")
        List<String> tags;
        @Option(names = "--target", description = "target name (target and user-target scopes)")
        String target;
        @Option(names = "--ttl", description = "lifetime: 30m, 36h, 7d, 2w or ISO 8601 (user scopes default to 7 days)")
        String ttl;
        @Option(names = "--persist", description = "never expires")
        boolean persist;

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
            send(s, "POST", ApiPaths.MEMORY, req, r -> ctx.out().println("remembered " + r.path("scope").asText() + "/" + r.path("slug").asText()
                    + (r.path("expires_at").isNull() || r.path("expires_at").isMissingNode() ? " (no expiry)"
                    : " (expires " + r.path("expires_at").asText() + ")")));
        }
    }

    /** recall */
    @Command(name = "recall", description = "Read <scope>/<slug>, or search with --query.")
    public static final class Recall extends BackplaneCommand {
        @Parameters(index = "0", arity = "0..1", paramLabel = "<scope>/<slug>")
        String ref;
        @Option(names = "--query", description = "search instead of reading one entry")
        String query;
        @Option(names = "--scope", description = "search only this scope")
        String scope;
        @Option(names = "--target", description = "target name when the entry exists for several")
        String target;
        @Option(names = "--limit", paramLabel = "1..50", description = "maximum hits (default 10)")
        Integer limit;

        @Override
        protected void validate() {
            if ((ref == null) == (query == null)) {
                throw CliException.usage("give either <scope>/<slug> or --query (not both)");
            }
            if (ref != null && (scope != null || limit != null)) {
                throw CliException.usage("--scope and --limit go with --query");
            }
            if (ref != null) {
                scopeSlug(ref);
            }
            Limits.check(limit, 1, 50, "--limit");
        }

        @Override
        protected void execute(Session s) {
            if (ref != null) {
                String[] ss = scopeSlug(ref);
                get(s, ApiPaths.expand(ApiPaths.MEMORY_ENTRY, ss[0], ss[1])
                        + QueryString.of().add("target_name", target), r -> ctx.out().println(r.path("body").asText()));
                return;
            }
            get(s, ApiPaths.RETRIEVE + QueryString.of().add("query", query).add("scope", scope)
                    .add("limit", limit), r -> {
                List<List<String>> rows = Tables.rows(r.path("hits"), h -> List.of(h.path("scope").asText() + "/" + h.path("slug").asText(),
                        String.format("%.4f", h.path("score").asDouble()), h.path("snippet").asText()));
                Tables.print(ctx.out(), List.of("ENTRY", "SCORE", "SNIPPET"), rows);
            });
        }
    }

    /** list */
    @Command(name = "list", description = "List the memory entries you can see.")
    public static final class ListMemory extends BackplaneCommand {
        @Option(names = "--scope")
        String scope;
        @Option(names = "--slug-pattern", description = "substring of the slug")
        String slugPattern;
        @Option(names = "--tag")
        String tag;
        @Option(names = "--include-expired")
        boolean includeExpired;
        @Option(names = "--limit", paramLabel = "1..500", description = "maximum entries (default 100)")
        Integer limit;

        @Override
        protected void validate() {
            Limits.check(limit, 1, 500, "--limit");
        }

        @Override
        protected void execute(Session s) {
            get(s, ApiPaths.MEMORY + QueryString.of().add("scope", scope)
                    .add("slug_pattern", slugPattern).add("tag", tag).add("include_expired", includeExpired)
                    .add("limit", limit), r -> {
                List<List<String>> rows = Tables.rows(r, e -> List.of(e.path("scope").asText() + "/" + e.path("slug").asText(),
                        e.path("target_name").asText(""), e.path("expires_at").asText(""),
                        MemoryCommands.snippet(e.path("body").asText())));
                Tables.print(ctx.out(), List.of("ENTRY", "TARGET", "EXPIRES", "BODY"), rows);
            });
        }
    }

    /** promote */
    @Command(name = "promote", description = "Promote <scope>/<slug> to a strictly broader scope.")
    public static final class Promote extends BackplaneCommand {
        @Parameters(index = "0", paramLabel = "<scope>/<slug>")
        String ref;
        @Option(names = "--to", required = true, description = "user-tenant, user, target or tenant (broader)")
        String to;
        @Option(names = "--move", description = "delete the source in the same transaction")
        boolean move;
        @Option(names = "--target", description = "target name when the entry exists for several")
        String target;

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
            send(s, "POST", ApiPaths.expand(ApiPaths.MEMORY_PROMOTE, ss[0], ss[1]), req, r -> ctx.out().println("promoted to " + r.path("scope").asText() + "/" + r.path("slug").asText()
                    + (move ? " (source removed)" : "")));
        }
    }

    static String snippet(String body) {
        String flat = body.replaceAll("\\s+", " ").strip();
        return flat.length() <= 60 ? flat : flat.substring(0, 57) + "...";
    }
}
