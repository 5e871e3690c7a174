package dev.backplane.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.common.ApiPaths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * The kinds of names shell completion asks the backplane for ({@code svc __complete <kind>}): each with the
 * list route that answers them (one page, the largest the route serves; completion offers what fits a screen
 * anyway) and where the names are in the answer. Operation ids come from the operation catalog, which the family
 * verbs already cache ({@link dev.backplane.cli.families.FamilyVerbs#catalog}).
 */
enum NameKind {

    TARGET("target", ApiPaths.TARGETS + "?limit=500", answer -> texts(answer.path("targets"), "name")),
    /** Every connector the tenant can review, enable or call: broken plugins and catalog entries not ingested have none. */
    CONNECTOR("connector", ApiPaths.CONNECTORS, answer -> {
        List<String> out = new ArrayList<>();
        answer.forEach(c -> {
            String status = c.path("status").asText();
            if (!status.equals("broken") && !status.equals("not_ingested")) {
                out.add(c.path("connector_id").asText());
            }
        });
        return out;
    }),
    OPERATION("op-id", ApiPaths.CATALOG_OPERATIONS, answer -> {
        List<String> out = new ArrayList<>();
        answer.path("connectors").forEach(c -> out.addAll(texts(c.path("operations"), "op_id")));
        return out;
    }),
    /** Pending requests only: those are what approve and reject take, and what show is mostly asked about. */
    APPROVAL("approval", ApiPaths.APPROVALS + "?status=pending&limit=500", answer -> texts(answer, "id")),
    AGENT("agent", ApiPaths.AGENTS + "?limit=500", answer -> texts(answer.path("agents"), "name")),
    /** Template slugs (one per template, whatever its versions). */
    RUNBOOK("runbook", ApiPaths.RUNBOOK_TEMPLATES + "?limit=500", answer -> texts(answer.path("templates"), "slug")),
    EVENT_SOURCE("event-source", ApiPaths.EVENT_SOURCES, answer -> texts(answer.path("event_sources"), "slug"));

    /** The word {@code svc __complete} takes. */
    final String word;
    /** The GET route (with its query) whose answer holds the names. */
    final String path;
    private final Function<JsonNode, List<String>> names;

    NameKind(String word, String path, Function<JsonNode, List<String>> names) {
        this.word = word;
        this.path = path;
        this.names = names;
    }

    /** The names in {@code answer}, as the backplane sent them (duplicates and blanks included). */
    List<String> names(JsonNode answer) {
        return names.apply(answer);
    }

    static Optional<NameKind> of(String word) {
        String w = word.toLowerCase(Locale.ROOT);
        for (NameKind k : values()) {
            if (k.word.equals(w)) {
                return Optional.of(k);
            }
        }
        return Optional.empty();
    }

    static List<String> words() {
        return java.util.Arrays.stream(values()).map(k -> k.word).toList();
    }

    private static List<String> texts(JsonNode items, String field) {
        List<String> out = new ArrayList<>();
        items.forEach(i -> out.add(i.path(field).asText()));
        return out;
    }
}
