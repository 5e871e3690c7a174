package dev.backplane.cli.events;

import dev.backplane.cli.common.RequestBody;
import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.CliContext;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.ConfirmOption;
import dev.backplane.cli.common.Http;
import dev.backplane.cli.common.Tables;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code svc event-source add|create|list|describe|update|delete|pause|resume}: inbound webhook sources. */
@Command(name = "event-source", description = "Inbound webhook sources (senders POST to /api/v1/events/ingest/<slug>).",
        subcommands = {EventSourceCommand.Add.class, EventSourceCommand.ListSources.class,
                EventSourceCommand.Describe.class, EventSourceCommand.Update.class, EventSourceCommand.Delete.class,
                EventSourceCommand.Pause.class, EventSourceCommand.Resume.class})
public final class EventSourceCommand {

    static void show(CliContext ctx, JsonNode s) {
        ctx.out().println(s.path("slug").asText() + "  " + s.path("name").asText() + "  " + s.path("kind").asText()
                + "  " + s.path("auth_strategy").asText() + "  " + s.path("status").asText());
        ctx.out().println("  ingest URL path: " + s.path("ingest_path").asText());
        if (!s.path("extras").isEmpty()) {
            ctx.out().println("  extras: " + s.path("extras"));
        }
        if (!s.path("previous_secret_valid_until").isNull()) {
            ctx.out().println("  previous secret accepted until " + s.path("previous_secret_valid_until").asText());
        }
    }

    /** The secret from SVC_EVENT_SOURCE_SECRET or standard input; never a flag value. */
    static String secret(CliContext ctx, boolean stdin) {
        if (stdin) {
            try {
                String s = new String(ctx.in().readAllBytes(), StandardCharsets.UTF_8).strip();
                if (s.isEmpty()) {
                    throw CliException.usage("--secret-stdin: nothing on standard input");
                }
                return s;
            } catch (IOException e) {
                throw CliException.failed("cannot read standard input: " + e.getMessage());
            }
        }
        return ctx.env("SVC_EVENT_SOURCE_SECRET").filter(s -> !s.isBlank()).orElse(null);
    }

    static JsonNode extras(String text) {
        try {
            JsonNode n = Http.JSON.readTree(text.startsWith("@") ? java.nio.file.Files.readString(
                    java.nio.file.Path.of(text.substring(1))) : text);
            if (!n.isObject()) {
                throw CliException.usage("--extras must be a JSON object");
            }
            return n;
        } catch (IOException e) {
            throw CliException.usage("--extras is not JSON: " + e.getMessage());
        }
    }

    /** The body of POST /api/v1/event-sources; a generated slug when none is given. */
    @RequestBody
    record NewSource(String slug, String name, String kind, String authStrategy, String secret, JsonNode extras) {
    }

    /** The body of PATCH /api/v1/event-sources/{slug}: only what changes; a new secret rotates. */
    @RequestBody
    record SourceChange(String name, String authStrategy, JsonNode extras, String secret, Integer overlapSeconds) {
        boolean isEmpty() {
            return name == null && authStrategy == null && extras == null && secret == null;
        }
    }

    /** event-source add|create [slug] */
    @Command(name = "add", aliases = "create", description = "Register an event source [tenant_admin]. The secret comes "
            + "from standard input (--secret-stdin) or SVC_EVENT_SOURCE_SECRET, never from a flag.")
    static final class Add extends BackplaneCommand {
        @Parameters(index = "0", arity = "0..1", paramLabel = "<slug>",
                description = "the URL routing key, 16-64 of a-z 0-9 - (default: generated, high-entropy)")
        String slug;
        @Option(names = "--name", required = true, description = "unique in the tenant")
        String name;
        @Option(names = "--kind", required = true, description = "alertrouter, dashalert, infraops, registry, generic-json")
        String kind;
        @Option(names = "--auth-strategy", required = true, description = "hmac-sha256, static-header or basic")
        String strategy;
        @Option(names = "--secret-stdin", description = "read the secret from standard input")
        boolean secretStdin;
        @Option(names = "--extras", paramLabel = "<json|@file>", description = "max_body_bytes, rate_per_second, burst, "
                + "replay_window_seconds, signature_header, timestamp_header, id_header, secret_header, basic_username")
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

    /** event-source list */
    @Command(name = "list", description = "The tenant's event sources.")
    static final class ListSources extends BackplaneCommand {
        @Override
        protected void execute(Session s) {
            get(s, ApiPaths.EVENT_SOURCES, all -> {
                List<List<String>> rows = Tables.rows(all.path("event_sources"), e -> List.of(e.path("name").asText(), e.path("slug").asText(), e.path("kind").asText(),
                            e.path("auth_strategy").asText(), e.path("status").asText()));
                Tables.print(ctx.out(), "no event sources", List.of("NAME", "SLUG", "KIND", "AUTH", "STATUS"), rows);
            });
        }
    }

    /** event-source describe */
    @Command(name = "describe", description = "One event source, by slug or name.")
    static final class Describe extends BackplaneCommand {
        @Parameters(index = "0", paramLabel = "<slug-or-name>")
        String slug;

        @Override
        protected void execute(Session s) {
            get(s, ApiPaths.expand(ApiPaths.EVENT_SOURCE, slug), e -> show(ctx, e));
        }
    }

    /** event-source update */
    @Command(name = "update", description = "Change a source [tenant_admin]. A new secret (--secret-stdin or "
            + "SVC_EVENT_SOURCE_SECRET with --rotate) rotates it; the old one stays valid for --overlap-seconds.")
    static final class Update extends BackplaneCommand {
        @Parameters(index = "0", paramLabel = "<slug-or-name>")
        String slug;
        @Option(names = "--name")
        String name;
        @Option(names = "--auth-strategy")
        String strategy;
        @Option(names = "--extras", paramLabel = "<json|@file>", description = "replaces the extras")
        String extras;
        @Option(names = "--secret-stdin", description = "rotate: the new secret from standard input")
        boolean secretStdin;
        @Option(names = "--rotate", description = "rotate: the new secret from SVC_EVENT_SOURCE_SECRET")
        boolean rotate;
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

    /** event-source delete */
    @Command(name = "delete", description = "Delete a source [tenant_admin]; its URL then answers 404.")
    static final class Delete extends BackplaneCommand {
        @Parameters(index = "0", paramLabel = "<slug-or-name>")
        String slug;
        @Mixin
        ConfirmOption confirm;

        @Override
        protected void validate() {
            confirm.require("deleting event source " + slug + " makes its senders' deliveries fail");
        }

        @Override
        protected void execute(Session s) {
            send(s, "DELETE", ApiPaths.expand(ApiPaths.EVENT_SOURCE, slug), null, e -> ctx.out().println("deleted event source " + slug));
        }
    }

    /** pause and resume: one request, the new status in the answer. */
    abstract static class StatusChange extends BackplaneCommand {
        @Parameters(index = "0", paramLabel = "<slug-or-name>")
        String slug;

        abstract String verb();

        @Override
        protected void execute(Session s) {
            send(s, "POST", ApiPaths.expand(ApiPaths.EVENT_SOURCE + "/" + verb(), slug), null, e -> ctx.out().println(verb() + "d event source " + e.path("slug").asText() + " (status "
                    + e.path("status").asText() + ")"));
        }
    }

    /** event-source pause */
    @Command(name = "pause", description = "Pause a source [tenant_admin]: its URL answers 404 like a missing one.")
    static final class Pause extends StatusChange {
        @Override
        String verb() {
            return "pause";
        }
    }

    /** event-source resume */
    @Command(name = "resume", description = "Resume a paused source [tenant_admin].")
    static final class Resume extends StatusChange {
        @Override
        String verb() {
            return "resume";
        }
    }
}
