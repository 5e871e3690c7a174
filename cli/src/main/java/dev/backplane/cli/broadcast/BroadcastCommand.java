package dev.backplane.cli.broadcast;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;

/** {@code svc broadcast}: the tenant's activity feed. */
@Command(name = "broadcast", description = "The tenant's activity feed: what is happening (watch), what happened "
        + "(recent), announcements of planned work, and per-operation overrides [operator; tenant_admin for overrides].",
        subcommands = {Announce.class, Recent.class, Watch.class, OverridesCommand.class})
public final class BroadcastCommand {

    private BroadcastCommand() {
    }

    static final List<String> HEADER = List.of("ID", "AT", "KIND", "STATUS", "PRINCIPAL", "ACTIVITY", "TARGET");

    /** One event as a table row. */
    static List<String> row(JsonNode e) {
        String status = e.path("status").asText(e.path("phase").asText(""));
        if (e.path("kind").asText().equals("announcement")) {
            status = e.path("phase").asText() + (e.path("active").asBoolean() ? " (active until "
                    + e.path("expires_at").asText() + ")" : "");
        }
        String activity = e.path("activity").asText();
        if (e.has("statuses")) {
            activity += " " + e.path("statuses");
        }
        List<String> targets = new ArrayList<>();
        e.path("targets").forEach(t -> targets.add(t.asText()));
        String target = e.path("target").asText(targets.isEmpty() ? "" : String.join(",", targets));
        return List.of(e.path("id").asText(), e.path("at").asText(), e.path("kind").asText(), status,
                e.path("principal").asText(), activity, target);
    }

    /** One event as a line of a live tail. */
    static String line(JsonNode e) {
        List<String> r = row(e);
        StringBuilder b = new StringBuilder(r.get(1)).append("  ").append(r.get(2)).append("  ").append(r.get(3))
                .append("  ").append(r.get(4)).append("  ").append(r.get(5));
        if (!r.get(6).isEmpty()) {
            b.append("  on ").append(r.get(6));
        }
        if (e.has("duration_ms")) {
            b.append("  (").append(e.path("duration_ms").asLong()).append(" ms)");
        }
        if (e.has("error_code")) {
            b.append("  ").append(e.path("error_code").asText());
        }
        return b.toString();
    }
}
