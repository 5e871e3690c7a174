package dev.backplane.cli.kb;

import dev.backplane.cli.common.RequestBody;
import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.ConfirmOption;
import dev.backplane.cli.common.Limits;
import dev.backplane.cli.common.QueryString;
import dev.backplane.cli.common.Tables;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code svc kb}: the knowledge base (durable team knowledge). Writes need tenant_admin. */
@Command(name = "kb", description = "The knowledge base: durable, general team knowledge.",
        subcommands = {KbCommand.Add.class, KbCommand.Show.class, KbCommand.ListEntries.class, KbCommand.Search.class,
                KbCommand.Delete.class, KbIngestCommand.class})
public final class KbCommand {

    private KbCommand() {
    }

    /** add */
    @Command(name = "add", description = "Add an entry, or update it in place if the slug exists [tenant_admin].")
    static final class Add extends BackplaneCommand {
        @Parameters(index = "0", paramLabel = "<slug>")
        String slug;
        @Option(names = "--body", paramLabel = "<text|@file|@->", required = true,
                description = "Markdown body: text, @file, or @- for standard input")
        String body;
        @Option(names = "--metadata", paramLabel = "k=v,...", description = "comma-separated key=value labels")
        String metadata;

        private String text;
        private Map<String, Object> meta;

        /** The body of POST /api/v1/kb. */
        @RequestBody
        record Entry(String slug, String body, Map<String, Object> metadata) {
        }

        @Override
        protected void validate() {
            if (body.equals("@-")) {
                try {
                    text = new String(ctx.in().readAllBytes(), StandardCharsets.UTF_8);
                } catch (IOException e) {
                    throw CliException.usage("--body @-: cannot read standard input: " + e.getMessage());
                }
            } else {
                text = dev.backplane.cli.common.TextArgs.read(body, "--body");
            }
            meta = new LinkedHashMap<>();
            if (metadata != null) {
                for (String pair : metadata.split(",")) {
                    int eq = pair.indexOf('=');
                    if (eq <= 0) {
                        throw CliException.usage("--metadata takes key=value pairs separated by commas, got '" + pair + "'");
                    }
                    meta.put(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
                }
            }
        }

        @Override
        protected void execute(Session s) {
            send(s, "POST", ApiPaths.KB, new Entry(slug, text, meta), r -> ctx.out().println(r.path("outcome").asText() + " kb entry " + slug
                    + (r.path("outcome").asText().equals("unchanged") ? " (same body: not re-embedded)" : "")));
        }
    }

    /** show */
    @Command(name = "show", description = "Show an entry in full.")
    static final class Show extends BackplaneCommand {
        @Parameters(index = "0", paramLabel = "<slug>")
        String slug;

        @Override
        protected void execute(Session s) {
            get(s, ApiPaths.expand(ApiPaths.KB_ENTRY, slug), r -> {
                ctx.out().println(r.path("slug").asText() + "  (updated " + r.path("updated_at").asText() + ", metadata "
                        + r.path("metadata") + ")");
                ctx.out().println();
                ctx.out().println(r.path("body").asText());
            });
        }
    }

    /** list */
    @Command(name = "list", description = "List entries by slug.")
    static final class ListEntries extends BackplaneCommand {
        @Option(names = "--filter", paramLabel = "<pattern>", description = "SQL LIKE pattern on the slug, e.g. k8s-%")
        String filter;
        @Option(names = "--limit", paramLabel = "1..500", description = "maximum entries (default 100)")
        Integer limit;
        @Option(names = "--offset", description = "skip this many")
        Integer offset;

        @Override
        protected void validate() {
            Limits.check(limit, 1, 500, "--limit");
            Limits.check(offset, 0, Integer.MAX_VALUE, "--offset");
        }

        @Override
        protected void execute(Session s) {
            get(s, ApiPaths.KB + QueryString.of().add("filter", filter).add("limit", limit)
                    .add("offset", offset), r -> {
                List<List<String>> rows = Tables.rows(r, e -> List.of(e.path("slug").asText(), e.path("updated_at").asText(),
                        e.path("metadata").toString()));
                Tables.print(ctx.out(), List.of("SLUG", "UPDATED", "METADATA"), rows);
            });
        }
    }

    /** search */
    @Command(name = "search", description = "Search by meaning and words (hybrid); hits show a snippet.")
    static final class Search extends BackplaneCommand {
        @Parameters(index = "0", paramLabel = "<query>")
        String query;
        @Option(names = "--limit", paramLabel = "1..50", description = "maximum hits (default 10)")
        Integer limit;

        /** The body of POST /api/v1/kb/search. */
        @RequestBody
        record Query(String query, Integer limit) {
        }

        @Override
        protected void validate() {
            Limits.check(limit, 1, 50, "--limit");
        }

        @Override
        protected void execute(Session s) {
            send(s, "POST", ApiPaths.KB_SEARCH, new Query(query, limit), r -> {
                if (r.path("hits").isEmpty()) {
                    ctx.out().println("no kb entry matches '" + query + "'");
                    return;
                }
                List<List<String>> rows = Tables.rows(r.path("hits"), h -> List.of(h.path("slug").asText(),
                        String.format("%.4f", h.path("score").asDouble()), h.path("snippet").asText()));
                Tables.print(ctx.out(), List.of("SLUG", "SCORE", "SNIPPET"), rows);
            });
        }
    }

    /** delete */
    @Command(name = "delete", description = "Delete an entry [tenant_admin]. REST and CLI only: no agent tool deletes.")
    static final class Delete extends BackplaneCommand {
        @Parameters(index = "0", paramLabel = "<slug>")
        String slug;
        @Mixin
        ConfirmOption confirm;

        @Override
        protected void validate() {
            confirm.require("delete kb entry " + slug + ": it cannot be restored");
        }

        @Override
        protected void execute(Session s) {
            send(s, "DELETE", ApiPaths.expand(ApiPaths.KB_ENTRY, slug), null, r -> ctx.out().println("deleted kb entry " + slug));
        }
    }
}
