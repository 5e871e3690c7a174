package dev.backplane.kernel.catalog;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A product-version range as connectors declare them:
 * <ul>
 *   <li>{@code *} — any version;</li>
 *   <li>{@code 1.x}, {@code 1.28.x} — that prefix;</li>
 *   <li>{@code 9}, {@code 9.0}, {@code 1.28.3} — that version or any version below it ({@code 9.0} holds 9.0.4);</li>
 *   <li>comparators joined by spaces or commas: {@code >=1.20 <2}, {@code >1.0,<=1.5}.</li>
 * </ul>
 * Versions compare numerically part by part; a leading {@code v} and anything after the numeric
 * parts ({@code 1.28.3+k3s1}) are ignored. {@link #specificity()} ranks ranges for the resolver.
 */
public final class VersionRange {

    private enum Op { GE, GT, LE, LT }

    private record Bound(Op op, int[] version) {
    }

    private final String text;
    private final Optional<int[]> prefix;
    private final List<Bound> bounds;

    private VersionRange(String text, Optional<int[]> prefix, List<Bound> bounds) {
        this.text = text;
        this.prefix = prefix;
        this.bounds = bounds;
    }

    public static VersionRange parse(String text) {
        String t = text == null ? "" : text.trim();
        if (t.isEmpty()) {
            throw new IllegalArgumentException("empty version range");
        }
        if (t.equals("*")) {
            return new VersionRange(t, Optional.of(new int[0]), List.of());
        }
        if (Character.isDigit(t.charAt(0)) || t.charAt(0) == 'v') {
            String p = t.endsWith(".x") || t.endsWith(".*") ? t.substring(0, t.length() - 2) : t;
            int[] parts = numbers(p).orElseThrow(() -> new IllegalArgumentException("not a version range: " + text));
            if (!p.matches("v?\\d+(\\.\\d+)*")) {
                throw new IllegalArgumentException("not a version range: " + text);
            }
            return new VersionRange(t, Optional.of(parts), List.of());
        }
        List<Bound> bounds = new ArrayList<>();
        for (String term : t.split("[\\s,]+")) {
            Op op;
            String v;
            if (term.startsWith(">=")) {
                op = Op.GE;
                v = term.substring(2);
            } else if (term.startsWith("<=")) {
                op = Op.LE;
                v = term.substring(2);
            } else if (term.startsWith(">")) {
                op = Op.GT;
                v = term.substring(1);
            } else if (term.startsWith("<")) {
                op = Op.LT;
                v = term.substring(1);
            } else {
                throw new IllegalArgumentException("not a version range term: '" + term + "' in '" + text + "'");
            }
            bounds.add(new Bound(op, numbers(v).filter(n -> n.length > 0)
                    .orElseThrow(() -> new IllegalArgumentException("not a version: '" + v + "' in '" + text + "'"))));
        }
        return new VersionRange(t, Optional.empty(), List.copyOf(bounds));
    }

    /** The leading numeric parts of a version string, if it has any. */
    static Optional<int[]> numbers(String version) {
        String v = version.trim();
        if (v.startsWith("v") || v.startsWith("V")) {
            v = v.substring(1);
        }
        List<Integer> parts = new ArrayList<>();
        for (String p : v.split("\\.", -1)) {
            String digits = p.replaceFirst("^(\\d+).*$", "$1");
            if (digits.isEmpty() || !Character.isDigit(digits.charAt(0))) {
                break;
            }
            try {
                parts.add(Integer.parseInt(digits));
            } catch (NumberFormatException e) {
                break;
            }
            if (!digits.equals(p)) {
                break; // "3+k3s1": keep 3, stop
            }
        }
        return parts.isEmpty() && !v.isEmpty() ? Optional.empty()
                : Optional.of(parts.stream().mapToInt(Integer::intValue).toArray());
    }

    public boolean contains(String version) {
        Optional<int[]> parsed = numbers(version).filter(n -> n.length > 0);
        if (parsed.isEmpty()) {
            return prefix.map(p -> p.length == 0).orElse(false);
        }
        int[] v = parsed.get();
        if (prefix.isPresent()) {
            int[] p = prefix.get();
            if (v.length < p.length) {
                return false;
            }
            for (int i = 0; i < p.length; i++) {
                if (v[i] != p[i]) {
                    return false;
                }
            }
            return true;
        }
        for (Bound b : bounds) {
            int c = compare(v, b.version());
            boolean ok = switch (b.op()) {
                case GE -> c >= 0;
                case GT -> c > 0;
                case LE -> c <= 0;
                case LT -> c < 0;
            };
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    /** Higher is narrower: the number of fixed version parts ({@code *} is 0, {@code 1.28.x} is 2). */
    public int specificity() {
        return prefix.map(p -> p.length).orElseGet(() -> bounds.stream().mapToInt(b -> b.version().length).max().orElse(0));
    }

    static int compare(int[] a, int[] b) {
        for (int i = 0; i < Math.max(a.length, b.length); i++) {
            int x = i < a.length ? a[i] : 0;
            int y = i < b.length ? b[i] : 0;
            if (x != y) {
                return Integer.compare(x, y);
            }
        }
        return 0;
    }

    @Override
    public String toString() {
        return text;
    }
}
