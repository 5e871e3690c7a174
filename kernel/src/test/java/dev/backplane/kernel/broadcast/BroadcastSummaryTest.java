package dev.backplane.kernel.broadcast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.backplane.kernel.broadcast.BroadcastQueryStore.OutcomeCount;
import dev.backplane.kernel.errors.DomainException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The feed's summary: how far back it may reach, and how counts per kind and outcome are totalled and grouped. */
class BroadcastSummaryTest {

    private static void refusedWith(Runnable r, String code, String field) {
        assertThatThrownBy(r::run).isInstanceOfSatisfying(DomainException.class, e -> {
            assertThat(e.code()).isEqualTo(code);
            assertThat(e.extras()).containsEntry("field", field);
        });
    }

    @Test
    void aSummaryReachesBackAtMostSevenDays() {
        Instant now = Instant.parse("2026-06-10T12:00:00Z");
        assertThatCode(() -> BroadcastSummary.checkReach(now.minus(Duration.ofDays(7)), now))
                .doesNotThrowAnyException();
        refusedWith(() -> BroadcastSummary.checkReach(now.minus(Duration.ofDays(7)).minusSeconds(1), now),
                "invalid_filter", "since");
    }

    @Test
    void countsAreTotalledAndGroupedByKindInTheirOrder() {
        Instant since = Instant.parse("2026-06-10T11:00:00Z");
        Map<String, Object> s = BroadcastSummary.of(since, List.of(new OutcomeCount("aggregate", "ok", 40),
                new OutcomeCount("call", "denied", 2), new OutcomeCount("call", "ok", 7),
                new OutcomeCount("announcement", "-", 1)), 3);
        assertThat(s).containsExactly(Map.entry("since", "2026-06-10T11:00:00Z"), Map.entry("total", 50L),
                Map.entry("by_kind", Map.of("aggregate", Map.of("ok", 40L), "call", Map.of("denied", 2L, "ok", 7L),
                        "announcement", Map.of("-", 1L))), Map.entry("active_claims", 3L));
        @SuppressWarnings("unchecked")
        Map<String, Map<String, Long>> byKind = (Map<String, Map<String, Long>>) s.get("by_kind");
        assertThat(byKind.keySet()).containsExactly("aggregate", "call", "announcement");
        assertThat(byKind.get("call").keySet()).containsExactly("denied", "ok");
    }

    @Test
    void aQuietTenantSummarizesToZero() {
        Map<String, Object> s = BroadcastSummary.of(Instant.EPOCH, List.of(), 0);
        assertThat(s.get("total")).isEqualTo(0L);
        assertThat(s.get("by_kind")).isEqualTo(Map.of());
        assertThat(s.get("active_claims")).isEqualTo(0L);
    }
}
