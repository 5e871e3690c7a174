package dev.backplane.kernel.sensors;

import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.util.Paging;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * A sensor's results as pages, newest first: the query's checks (cursor, time bounds, state, limit) and
 * the page with the cursor of the next one, read from {@link SensorRunStore}.
 */
final class SensorResults {

    /** A checked query: results before {@code after} (null on the first page), evaluated within from..to (each may be null). */
    record Query(Long after, Instant from, Instant to, int limit, Optional<SensorState> state) {
    }

    private final SensorRunStore store;

    SensorResults(SensorRunStore store) {
        this.store = store;
    }

    /**
     * Checks a results query: {@code cursor} is the {@code next_cursor} of the page before; {@code from}/{@code to}
     * bound evaluated_at (RFC 3339, inclusive, from not after to); {@code state} is a sensor state's name.
     */
    static Query query(Optional<String> cursor, Optional<String> from, Optional<String> to, int limit,
                       Optional<String> state) {
        Paging page = Sensors.PAGE.checked(limit, 0);
        Long after = cursor.map(SensorInput::cursor).orElse(null);
        Instant fromAt = from.map(f -> SensorInput.time(f, "from")).orElse(null);
        Instant toAt = to.map(t -> SensorInput.time(t, "to")).orElse(null);
        if (fromAt != null && toAt != null && fromAt.isAfter(toAt)) {
            throw CommonErrors.INVALID_TIME.error("from is after to", Map.of("field", "from"));
        }
        Optional<SensorState> wanted = state.map(s -> SensorState.of(s).orElseThrow(() ->
                CommonErrors.INVALID_QUERY.error("state must be one of " + SensorState.NAMES + ", got '" + s + "'",
                        Map.of("field", "state"))));
        return new Query(after, fromAt, toAt, page.limit(), wanted);
    }

    /** The page the query asks for of the sensor's results (one more row is read to know whether a next page exists). */
    Sensors.ResultPage page(UUID tenant, UUID id, Query q) {
        return page(store.results(tenant, id, q.after(), q.from(), q.to(), q.state(), q.limit() + 1), q.limit());
    }

    /** The first {@code limit} rows, and when there are more, the cursor of the next page: the last row's id. */
    static Sensors.ResultPage page(List<SensorResult> rows, int limit) {
        Optional<String> next = Optional.empty();
        if (rows.size() > limit) {
            rows = rows.subList(0, limit);
            next = Optional.of(Long.toString(rows.getLast().id()));
        }
        return new Sensors.ResultPage(List.copyOf(rows), next);
    }
}
