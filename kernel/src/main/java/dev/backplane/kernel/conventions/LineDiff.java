package dev.backplane.kernel.conventions;

import java.util.ArrayList;
import java.util.List;

/**
 * A unified diff of two texts by lines (longest common subsequence, three lines of context), as
 * {@code diff -u} prints it. The common head and tail are trimmed first; when what remains is too big
 * for the table ({@value #MAX_CELLS} cells) the middle is shown as removed and added whole — still a
 * correct diff, only not a minimal one.
 */
final class LineDiff {

    static final int CONTEXT = 3;
    static final long MAX_CELLS = 250_000L;

    private LineDiff() {
    }

    private record Op(char kind, String line, int oldLine, int newLine) {
    }

    /** The diff, or an empty string when the texts have the same lines. */
    static String unified(String before, String after, String fromLabel, String toLabel) {
        List<String> a = lines(before);
        List<String> b = lines(after);
        List<Op> ops = script(a, b);
        if (ops.stream().allMatch(o -> o.kind() == ' ')) {
            return "";
        }
        StringBuilder out = new StringBuilder("--- ").append(fromLabel).append('\n').append("+++ ").append(toLabel)
                .append('\n');
        int i = 0;
        while (i < ops.size()) {
            if (ops.get(i).kind() == ' ') {
                i++;
                continue;
            }
            int start = Math.max(0, i - CONTEXT);
            // extend the hunk while the next change is within two contexts of the last one
            int last = i;
            for (int j = i; j < ops.size(); j++) {
                if (ops.get(j).kind() != ' ') {
                    if (j - last > 2 * CONTEXT) {
                        break;
                    }
                    last = j;
                }
            }
            int end = Math.min(ops.size(), last + CONTEXT + 1);
            hunk(out, ops.subList(start, end));
            i = end;
        }
        return out.toString();
    }

    private static void hunk(StringBuilder out, List<Op> h) {
        int oldStart = -1;
        int newStart = -1;
        int oldCount = 0;
        int newCount = 0;
        for (Op o : h) {
            if (o.kind() != '+') {
                oldCount++;
                if (oldStart < 0) {
                    oldStart = o.oldLine();
                }
            }
            if (o.kind() != '-') {
                newCount++;
                if (newStart < 0) {
                    newStart = o.newLine();
                }
            }
        }
        // an empty side is numbered by the line before it, as diff -u does
        if (oldStart < 0) {
            oldStart = h.getFirst().oldLine() - 1;
        }
        if (newStart < 0) {
            newStart = h.getFirst().newLine() - 1;
        }
        out.append("@@ -").append(range(oldStart, oldCount)).append(" +").append(range(newStart, newCount))
                .append(" @@\n");
        h.forEach(o -> out.append(o.kind()).append(o.line()).append('\n'));
    }

    private static String range(int start, int count) {
        return count == 1 ? String.valueOf(start) : start + "," + count;
    }

    static List<String> lines(String text) {
        return text == null || text.isEmpty() ? List.of() : text.lines().toList();
    }

    /** The edit script: every line of both texts in order, each kept, removed or added (1-based line numbers). */
    private static List<Op> script(List<String> a, List<String> b) {
        int head = 0;
        while (head < a.size() && head < b.size() && a.get(head).equals(b.get(head))) {
            head++;
        }
        int tail = 0;
        while (tail < a.size() - head && tail < b.size() - head
                && a.get(a.size() - 1 - tail).equals(b.get(b.size() - 1 - tail))) {
            tail++;
        }
        List<Op> ops = new ArrayList<>();
        for (int k = 0; k < head; k++) {
            ops.add(new Op(' ', a.get(k), k + 1, k + 1));
        }
        List<String> x = a.subList(head, a.size() - tail);
        List<String> y = b.subList(head, b.size() - tail);
        int n = x.size();
        int m = y.size();
        if ((long) n * m > MAX_CELLS) {
            for (int k = 0; k < n; k++) {
                ops.add(new Op('-', x.get(k), head + k + 1, head + 1));
            }
            for (int k = 0; k < m; k++) {
                ops.add(new Op('+', y.get(k), head + n + 1, head + k + 1));
            }
        } else {
            int[][] lcs = new int[n + 1][m + 1];
            for (int p = n - 1; p >= 0; p--) {
                for (int q = m - 1; q >= 0; q--) {
                    lcs[p][q] = x.get(p).equals(y.get(q)) ? lcs[p + 1][q + 1] + 1 : Math.max(lcs[p + 1][q], lcs[p][q + 1]);
                }
            }
            int p = 0;
            int q = 0;
            while (p < n || q < m) {
                if (p < n && q < m && x.get(p).equals(y.get(q))) {
                    ops.add(new Op(' ', x.get(p), head + p + 1, head + q + 1));
                    p++;
                    q++;
                } else if (p < n && (q == m || lcs[p + 1][q] >= lcs[p][q + 1])) {
                    ops.add(new Op('-', x.get(p), head + p + 1, head + q + 1));
                    p++;
                } else {
                    ops.add(new Op('+', y.get(q), head + p + 1, head + q + 1));
                    q++;
                }
            }
        }
        for (int k = 0; k < tail; k++) {
            int ai = a.size() - tail + k;
            int bi = b.size() - tail + k;
            ops.add(new Op(' ', a.get(ai), ai + 1, bi + 1));
        }
        return ops;
    }
}
