package dev.backplane.kernel.quality;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** An eval report held to a saved baseline (no database): the tolerance, the deltas, the worst status. */
class BaselineComparisonTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static Map<String, Object> report(double recall, double mrr, double ndcg) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("surface", "kb");
        r.put("eval_set_sha256", "abc");
        Map<String, Double> m = new LinkedHashMap<>();
        m.put("recall_at_10", recall);
        m.put("mrr", mrr);
        m.put("ndcg_at_10", ndcg);
        r.put("engine_metrics", m);
        return r;
    }

    private static Optional<JsonNode> saved(Map<String, Object> report) {
        Map<String, Object> s = new LinkedHashMap<>(report);
        s.put("saved_at", "2026-11-01T00:00:00Z");
        s.put("saved_by", "admin");
        return Optional.of(JSON.valueToTree(s));
    }

    @Test
    void noSavedBaselineSaysHowToSaveOne() {
        Map<String, Object> c = BaselineComparison.compare(report(0.9, 0.8, 0.85), Optional.empty());
        assertThat(c.get("status")).isEqualTo("no_baseline");
        assertThat((String) c.get("message")).contains("kb").contains("--save-baseline");
    }

    @Test
    void aFallWithinTheToleranceIsNoise() {
        Map<String, Object> c = BaselineComparison.compare(report(0.89, 0.79, 0.84), saved(report(0.9, 0.8, 0.85)));
        assertThat(c.get("status")).isEqualTo("ok");
        assertThat(c.get("regressed_metrics")).isEqualTo(List.of());
        assertThat(c.get("deltas")).isEqualTo(Map.of("recall_at_10", -0.01, "mrr", -0.01, "ndcg_at_10", -0.01));
        assertThat(c.get("tolerance")).isEqualTo(0.02);
        assertThat(c.get("baseline_saved_by")).isEqualTo("admin");
        assertThat(c.get("eval_set_changed")).isEqualTo(false);
    }

    @Test
    void aFallBeyondTheToleranceIsARegressionOfThatMetric() {
        Map<String, Object> now = report(0.9, 0.77, 0.9);
        now.put("eval_set_sha256", "def");
        Map<String, Object> c = BaselineComparison.compare(now, saved(report(0.9, 0.8, 0.85)));
        assertThat(c.get("status")).isEqualTo("regressed");
        assertThat(c.get("regressed_metrics")).isEqualTo(List.of("mrr"));
        assertThat(c.get("eval_set_changed")).isEqualTo(true);
    }

    @Test
    void theWorstStatusWins() {
        assertThat(BaselineComparison.worse("ok", "no_baseline")).isEqualTo("no_baseline");
        assertThat(BaselineComparison.worse("no_baseline", "ok")).isEqualTo("no_baseline");
        assertThat(BaselineComparison.worse("no_baseline", "regressed")).isEqualTo("regressed");
        assertThat(BaselineComparison.worse("regressed", "ok")).isEqualTo("regressed");
        assertThat(BaselineComparison.worse("ok", "ok")).isEqualTo("ok");
    }
}
