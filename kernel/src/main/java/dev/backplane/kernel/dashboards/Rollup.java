package dev.backplane.kernel.dashboards;

import java.util.Collection;
import java.util.List;

/**
 * The roll-up rule: the worst member state, with {@code skip} ignored and an empty set (or one of only
 * skips) {@code unknown}. Worst means critical, then degraded, then unknown, then ok — a sensor that has
 * not answered yet keeps a dashboard from claiming ok.
 */
final class Rollup {

    private static final List<String> ORDER = List.of("ok", "unknown", "degraded", "critical");

    private Rollup() {
    }

    static String of(Collection<String> states) {
        String worst = null;
        for (String s : states) {
            if (s.equals("skip")) {
                continue;
            }
            if (worst == null || rank(s) > rank(worst)) {
                worst = s;
            }
        }
        return worst == null ? "unknown" : worst;
    }

    /** ok 0, unknown 1, degraded 2, critical 3. */
    static int rank(String state) {
        int r = ORDER.indexOf(state);
        if (r < 0) {
            throw new IllegalArgumentException("not a roll-up state: " + state);
        }
        return r;
    }
}
