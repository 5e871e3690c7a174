package dev.backplane.kernel.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.backplane.kernel.results.ResultHandles;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The branch of reduction that stores nothing: a result larger than a stored result may hold answers its
 * sample with {@code drill_in.available: false} and the reason (SPEC "Reduced result"). The stored branch is
 * exercised against PostgreSQL by DispatchIT and ResultQueryIT.
 */
class ReducerTest {

    @Test
    void aResultTooLargeToStoreSaysDrillInIsUnavailableAndWhy() {
        // no database: this branch must not store anything (a store would fail on the absent connection)
        Reducer reducer = new Reducer(new ResultHandles(null, Duration.ofHours(1), 8_192));
        List<Map<String, Object>> rows = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            rows.add(Map.of("name", "row-" + i, "value", "x".repeat(40)));
        }
        Reducer.Reduced r = reducer.reduce(UUID.randomUUID(), "op", "demo.item.list", rows);
        assertThat((List<?>) r.result()).hasSizeBetween(1, Reducer.SAMPLE_ROWS);
        assertThat(r.extras()).containsEntry("reduced", true).containsEntry("total_rows", 400);
        @SuppressWarnings("unchecked")
        Map<String, Object> drill = (Map<String, Object>) ((Map<String, Object>) r.extras().get("fetch_more"))
                .get("drill_in");
        assertThat(drill).containsEntry("available", false).doesNotContainKey("handle_id");
        assertThat(drill.get("reason").toString()).contains("8192").contains("narrow the call");
    }
}
