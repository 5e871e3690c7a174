package dev.backplane.kernel.results;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.util.JsonMapping;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.UUID;
import org.postgresql.util.PGobject;

/**
 * SQL for stored results: the handles in {@code results_handles}, their JSONB rows in {@code results_rows},
 * and running a compiled {@code result_query} statement read-only under a statement timeout.
 */
final class ResultStore {

    /** The rows one compiled statement returned, and its window count (-1 when no row came back). */
    record Page(List<Object> rows, long total) {
    }

    private final Jdbc jdbc;

    ResultStore(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    /** Runs {@code body} in one transaction (storing a handle with its rows). */
    <T> T inTransaction(Jdbc.TxBody<T> body) {
        return jdbc.inTransaction(body);
    }

    /** Inserts the handle and its rows (in batches of 500) in the caller's transaction. */
    static void insert(Connection c, ResultHandles.Handle h, UUID tenant, String principal,
                       List<Map<String, Object>> rows) throws SQLException {
        Jdbc.update(c, """
                INSERT INTO results_handles (id, tenant_id, principal, op_id, row_count, keys, expires_at)
                VALUES (?, ?, ?, ?, ?, ?, ?)""", h.id(), tenant, principal, h.opId(), h.rowCount(),
                c.createArrayOf("text", h.keys().toArray()), Timestamp.from(h.expiresAt()));
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO results_rows (handle_id, ordinal, row) VALUES (?, ?, ?)")) {
            int i = 0;
            for (Map<String, Object> row : rows) {
                PGobject json = new PGobject();
                json.setType("jsonb");
                json.setValue(JsonMapping.write(ResultHandles.withoutNul(row)));
                ps.setObject(1, h.id());
                ps.setInt(2, i++);
                ps.setObject(3, json);
                ps.addBatch();
                if (i % 500 == 0) {
                    ps.executeBatch();
                }
            }
            ps.executeBatch();
        }
    }

    /** The handle if it exists, belongs to (tenant, principal) and has not expired. */
    Optional<ResultHandles.Handle> findLive(UUID id, UUID tenant, String principal) {
        return jdbc.queryOne("""
                SELECT id, op_id, row_count, expires_at, keys FROM results_handles
                 WHERE id = ? AND tenant_id = ? AND principal = ? AND expires_at > now()""",
                rs -> new ResultHandles.Handle(rs.getObject(1, UUID.class), rs.getString(2), rs.getInt(3),
                        rs.getTimestamp(4).toInstant(), new TreeSet<>(List.of((String[]) rs.getArray(5).getArray()))),
                id, tenant, principal);
    }

    /** Deletes expired handles (their rows go with them); returns how many. */
    int deleteExpired() {
        return jdbc.update("DELETE FROM results_handles WHERE expires_at <= now()");
    }

    /** Runs the compiled statement in a read-only transaction with {@code timeoutMs} as its statement timeout. */
    Page run(ResultQueryCompiler.Compiled compiled, int timeoutMs) {
        return jdbc.inTransaction(c -> {
            try (Statement s = c.createStatement()) {
                s.execute("SET TRANSACTION READ ONLY");
                s.execute("SET LOCAL statement_timeout = " + timeoutMs);
            }
            List<Object> rows = new ArrayList<>();
            long total = 0;
            try (PreparedStatement ps = c.prepareStatement(compiled.sql())) {
                int i = 1;
                for (Object p : compiled.params()) {
                    ps.setObject(i++, p);
                }
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        rows.add(compiled.mode() == ResultQueryCompiler.Mode.ROWS ? json(rs.getString("out"))
                                : grouped(rs, compiled.outputNames()));
                        total = rs.getLong("total");
                    }
                }
            }
            return new Page(rows, rows.isEmpty() && compiled.offset() > 0 ? -1 : total);
        });
    }

    private static Map<String, Object> grouped(ResultSet rs, List<String> names) throws SQLException {
        Map<String, Object> row = new LinkedHashMap<>();
        for (int i = 0; i < names.size(); i++) {
            Object v = rs.getObject(i + 1);
            if (v instanceof PGobject pg) {
                v = pg.getValue() == null ? null : json(pg.getValue());
            } else if (v instanceof BigDecimal d) {
                v = d.stripTrailingZeros().scale() <= 0 ? (Object) d.toBigIntegerExact() : d.doubleValue();
            }
            row.put(names.get(i), v);
        }
        return row;
    }

    private static Object json(String text) {
        try {
            return text == null ? null : JsonMapping.mapper().readValue(text, Object.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored row is not JSON", e);
        }
    }
}
