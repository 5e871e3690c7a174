package dev.backplane.cli.common;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/** Plain aligned text tables for human output. */
public final class Tables {

    private static final String ELLIPSIS = "\u2026";
    private static final int MIN_CELL = 4;
    private static final int MIN_HEADER = 8;

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
    public static void print(CliContext ctx, String none, List<String> header, List<List<String>> rows) {
        if (rows.isEmpty()) {
            ctx.out().println(none);
        } else {
            print(ctx, header, rows);
        }
    }

    /** Each of {@code items} through {@code each}, or the line {@code none} when there are none. */
    public static void each(CliContext ctx, JsonNode items, String none, Render each) {
        if (items.isEmpty()) {
            ctx.out().println(none);
        }
        items.forEach(item -> each.print(ctx, item));
    }

    /**
     * An aligned table. On a terminal narrower than the table the widest columns are narrowed until it fits, and a
     * cell cut short ends with an ellipsis; to a pipe or a file, and with {@code -o wide}, every cell is whole.
     */
    public static void print(CliContext ctx, List<String> header, List<List<String>> rows) {
        PrintWriter out = ctx.out();
        int[] width = new int[header.size()];
        List<List<String>> all = new ArrayList<>();
        all.add(header);
        all.addAll(rows);
        for (List<String> r : all) {
            for (int i = 0; i < r.size() && i < width.length; i++) {
                width[i] = Math.max(width[i], r.get(i) == null ? 0 : r.get(i).length());
            }
        }
        boolean fitted = ctx.terminal().fits();
        if (fitted) {
            width = fit(width, header, ctx.terminal().columns());
        }
        for (List<String> r : all) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < r.size(); i++) {
                String cell = r.get(i) == null ? "" : r.get(i);
                if (fitted && i < width.length) {
                    cell = cut(cell, width[i]);
                }
                line.append(i == r.size() - 1 || i >= width.length ? cell : String.format("%-" + width[i] + "s  ", cell));
            }
            out.println(line.toString().stripTrailing());
        }
    }

    /**
     * Column widths that fit {@code columns} (two spaces between columns): columns narrower than an even share keep
     * their width, the others share what is left. No column goes below its header's first few characters, so a
     * table of very many columns may still wrap.
     */
    static int[] fit(int[] width, List<String> header, int columns) {
        int n = width.length;
        int gaps = 2 * Math.max(0, n - 1);
        int total = gaps;
        for (int w : width) {
            total += w;
        }
        if (total <= columns) {
            return width;
        }
        int[] out = width.clone();
        boolean[] kept = new boolean[n];
        int left = columns - gaps;
        int open = n;
        boolean changed = true;
        while (changed && open > 0) {
            changed = false;
            int share = left / open;
            for (int i = 0; i < n; i++) {
                if (!kept[i] && width[i] <= share) {
                    kept[i] = true;
                    left -= width[i];
                    open--;
                    changed = true;
                }
            }
        }
        if (open == 0) {
            return out;
        }
        int share = Math.max(0, left) / open;
        int extra = Math.max(0, left) % open;
        for (int i = 0; i < n; i++) {
            if (!kept[i]) {
                int floor = Math.min(width[i], Math.max(MIN_CELL, Math.min(header.get(i).length(), MIN_HEADER)));
                out[i] = Math.max(floor, share + (extra-- > 0 ? 1 : 0));
            }
        }
        return out;
    }

    /** The cell, cut to {@code width} characters with an ellipsis when longer. */
    static String cut(String cell, int width) {
        if (cell.length() <= width) {
            return cell;
        }
        return width <= 1 ? ELLIPSIS.substring(0, Math.max(0, width)) : cell.substring(0, width - 1) + ELLIPSIS;
    }
}
