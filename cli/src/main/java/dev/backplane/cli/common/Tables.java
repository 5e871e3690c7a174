package dev.backplane.cli.common;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/** Plain aligned text tables for human output. */
public final class Tables {

    private Tables() {
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
