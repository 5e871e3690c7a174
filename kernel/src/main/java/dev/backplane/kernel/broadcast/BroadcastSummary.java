package dev.backplane.kernel.broadcast;

import dev.backplane.kernel.broadcast.BroadcastQueryStore.OutcomeCount;
import dev.backplane.kernel.util.TimeArg;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The feed's summary of a tenant ({@code svc status}): how far back it may reach, and the event counts per
 * kind and outcome since then with the announcement claims open now, shaped as the status route answers them.
 */
final class BroadcastSummary {

    static final Duration MAX_REACH = Duration.ofDays(7);

    private final BroadcastQueryStore store;

    BroadcastSummary(BroadcastQueryStore store) {
        this.store = store;
    }

    /** The tenant's summary since {@code sinceArg} (as {@link TimeArg} reads it). */
    Map<String, Object> since(UUID tenant, String sinceArg) {
        Instant since = TimeArg.parse(sinceArg, "since");
        checkReach(since, Instant.now());
        List<OutcomeCount> counts = store.countsSince(tenant, since);
        return of(since, counts, store.openClaims(tenant));
    }

    /** Refuses a summary reaching back more than {@link #MAX_REACH} from {@code now} ({@code invalid_filter}). */
    static void checkReach(Instant since, Instant now) {
        if (since.isBefore(now.minus(MAX_REACH))) {
            throw BroadcastErrors.INVALID_FILTER.error("since may reach back at most 7 days", Map.of("field", "since"));
        }
    }

    /** The summary of counts ordered by kind, then outcome: their total, and per kind each outcome's count. */
    static Map<String, Object> of(Instant since, List<OutcomeCount> counts, long activeClaims) {
        Map<String, Map<String, Long>> byKind = new LinkedHashMap<>();
        long total = 0;
        for (OutcomeCount row : counts) {
            total += row.count();
            byKind.computeIfAbsent(row.kind(), k -> new LinkedHashMap<>()).put(row.outcome(), row.count());
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("since", since.toString());
        out.put("total", total);
        out.put("by_kind", byKind);
        out.put("active_claims", activeClaims);
        return out;
    }
}
