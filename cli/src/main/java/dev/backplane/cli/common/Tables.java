package dev.backplane.cli.common;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/** Plain aligned text tables for human output. */
public final class Tables {

    private Tables() {
    }

    /** One row per element of {@code items}. */
    /**
     * A principal as people read it: {@code alice (<sub>)} when the backplane knows the sub's username,
     * else the bare sub.
     */
    public static String principal(JsonNode item, String subField, String usernameField) {
        String sub = item.path(subField).asText("");
        String name = item.path(usernameField).asText("");
        return item.path(usernameField).isTextual() && !name.isEmpty() ? name + " (" + sub + ")" : sub;
    }

    public static List<List<String>> rows(JsonNode items, Function<JsonNode, List<String>> row) {
        List<List<String>> rows = new ArrayList<>();
        items.forEach(item -> rows.add(row.apply(item)));
        return rows;
    }

    /** The table, or the line {@code none} when there are no rows. */
    public static void print(PrintWriter out, String none, List<String> header, List<List<String>> rows) {
        if (rows.isEmpty()) {
            out.println(none);
        } else {
            print(out, header, rows);
        }
    }

    /** Each of {@code items} through {@code each}, or the line {@code none} when there are none. */
    public static void each(CliContext ctx, JsonNode items, String none, Render each) {
        if (items.isEmpty()) {
            ctx.out().println(none);
        }
        items.forEach(item -> each.print(ctx, item));
    }

    public static void print(PrintWriter out, List<String> header, List<List<String>> rows) {
        int[] width = new int[header.size()];
        List<List<String>> all = new ArrayList<>();
        all.add(header);
        all.addAll(rows);
        for (List<String> r : all) {
            for (int i = 0; i < r.size(); i++) {
                width[i] = Math.max(width[i], r.get(i) == null ? 0 : r.get(i).length());
            }
        }
        for (List<String> r : all) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < r.size(); i++) {
                String cell = r.get(i) == null ? "" : r.get(i);
                line.append(i == r.size() - 1 ? cell : String.format("%-" + width[i] + "s  ", cell));
            }
            out.println(line.toString().stripTrailing());
        }
    }
}
