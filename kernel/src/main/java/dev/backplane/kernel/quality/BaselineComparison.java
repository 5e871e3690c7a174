package dev.backplane.kernel.quality;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An eval report held to the baseline its tenant saved for the surface: status {@code ok}, {@code regressed}
 * (a metric fell more than {@value #TOLERANCE} below it) or {@code no_baseline}, with the deltas, and the worst
 * status over several surfaces.
 */
final class BaselineComparison {

    /** How far a metric may fall below the saved baseline before it counts as a regression (eval noise). */
    static final double TOLERANCE = 0.02;
    /** The statuses from best to worst. */
    private static final List<String> ORDER = List.of("ok", "no_baseline", "regressed");

    private BaselineComparison() {
    }

    /** status ok, regressed (a metric fell more than the tolerance) or no_baseline. */
    static Map<String, Object> compare(Map<String, Object> current, Optional<JsonNode> saved) {
        Map<String, Object> c = new LinkedHashMap<>();
        if (saved.isEmpty()) {
            c.put("status", "no_baseline");
            c.put("message", "no baseline saved for " + current.get("surface") + "; run svc retrieval eval --save-baseline");
            return c;
        }
        @SuppressWarnings("unchecked")
        Map<String, Double> now = (Map<String, Double>) current.get("engine_metrics");
        Map<String, Double> deltas = new LinkedHashMap<>();
        List<String> fell = new ArrayList<>();
        for (String m : Metrics.NAMES) {
            double before = saved.get().path("engine_metrics").path(m).asDouble();
            deltas.put(m, Math.round((now.get(m) - before) * 10_000) / 10_000.0);
            if (now.get(m) < before - TOLERANCE) {
                fell.add(m);
            }
        }
        c.put("status", fell.isEmpty() ? "ok" : "regressed");
        c.put("regressed_metrics", fell);
        c.put("deltas", deltas);
        c.put("tolerance", TOLERANCE);
        c.put("baseline_saved_at", saved.get().path("saved_at").asText());
        c.put("baseline_saved_by", saved.get().path("saved_by").asText());
        c.put("baseline_engine_metrics", saved.get().path("engine_metrics"));
        c.put("eval_set_changed", !saved.get().path("eval_set_sha256").asText().equals(current.get("eval_set_sha256")));
        return c;
    }

    /** The worse of two statuses: regressed over no_baseline over ok. */
    static String worse(String a, String b) {
        return ORDER.indexOf(b) > ORDER.indexOf(a) ? b : a;
    }
}
