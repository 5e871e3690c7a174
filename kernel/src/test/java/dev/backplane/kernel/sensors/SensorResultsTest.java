package dev.backplane.kernel.sensors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.backplane.kernel.errors.DomainException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/** A sensor's results query: its checks (cursor, time bounds, state, limit) and how a page and its next cursor are cut. */
class SensorResultsTest {

    private static final Instant T = Instant.parse("2026-03-02T12:00:00Z");
    private static final Optional<String> NONE = Optional.empty();

    private static void refused(Runnable r, String code, String field) {
        assertThatThrownBy(r::run).isInstanceOf(DomainException.class).satisfies(e -> {
            assertThat(((DomainException) e).code()).isEqualTo(code);
            assertThat(((DomainException) e).extras().get("field")).isEqualTo(field);
        });
    }

    @Test
    void aFullQueryIsCheckedIntoItsBounds() {
        SensorResults.Query q = SensorResults.query(Optional.of("42"), Optional.of("2026-03-01T00:00:00Z"),
                Optional.of("2026-03-02T12:00:00Z"), 10, Optional.of("critical"));
        assertThat(q).isEqualTo(new SensorResults.Query(42L, Instant.parse("2026-03-01T00:00:00Z"), T, 10,
                Optional.of(SensorState.CRITICAL)));
        assertThat(SensorResults.query(NONE, NONE, NONE, 500, NONE))
                .isEqualTo(new SensorResults.Query(null, null, null, 500, Optional.empty()));
        // from equal to to is an inclusive instant, not an empty range
        assertThat(SensorResults.query(NONE, Optional.of(T.toString()), Optional.of(T.toString()), 1, NONE).from())
                .isEqualTo(T);
    }

    @Test
    void aBadQueryIsRefusedWithItsCodeAndField() {
        refused(() -> SensorResults.query(Optional.of("0"), NONE, NONE, 10, NONE), "invalid_cursor", "cursor");
        refused(() -> SensorResults.query(Optional.of("abc"), NONE, NONE, 10, NONE), "invalid_cursor", "cursor");
        refused(() -> SensorResults.query(NONE, Optional.of("yesterday"), NONE, 10, NONE), "invalid_time", "from");
        refused(() -> SensorResults.query(NONE, NONE, Optional.of("soon"), 10, NONE), "invalid_time", "to");
        refused(() -> SensorResults.query(NONE, Optional.of(T.plusSeconds(1).toString()), Optional.of(T.toString()), 10,
                NONE), "invalid_time", "from");
        refused(() -> SensorResults.query(NONE, NONE, NONE, 10, Optional.of("green")), "invalid_query", "state");
        refused(() -> SensorResults.query(NONE, NONE, NONE, 501, NONE), "invalid_limit", "limit");
        refused(() -> SensorResults.query(NONE, NONE, NONE, 0, NONE), "invalid_limit", "limit");
    }

    @Test
    void aPageKeepsLimitRowsAndPointsItsCursorAtTheLastOneOnlyWhenMoreExist() {
        UUID sensor = UUID.randomUUID();
        List<SensorResult> three = LongStream.of(9, 8, 7).mapToObj(id -> new SensorResult(id, sensor, T, T, "ok", "",
                "ok", Optional.empty(), 5)).toList();
        Sensors.ResultPage more = SensorResults.page(three, 2);
        assertThat(more.results()).extracting(SensorResult::id).containsExactly(9L, 8L);
        assertThat(more.nextCursor()).contains("8");
        Sensors.ResultPage last = SensorResults.page(three, 3);
        assertThat(last.results()).hasSize(3);
        assertThat(last.nextCursor()).isEmpty();
        assertThat(SensorResults.page(List.of(), 3).nextCursor()).isEmpty();
    }
}
