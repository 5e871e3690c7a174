package dev.backplane.cli.events;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.common.CliContext;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.Http;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine.Command;

/** {@code svc event-source add|create|list|describe|update|delete|pause|resume}: inbound webhook sources. */
@Command(name = "event-source", description = "Inbound webhook sources (senders POST to /api/v1/events/ingest/<slug>).",
        subcommands = {Add.class, ListSources.class,
                Describe.class, Update.class, Delete.class,
                Pause.class, Resume.class})
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
}
