package dev.backplane.kernel.results;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.util.JsonMapping;
import java.math.BigDecimal;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * result_query: pages through or queries a stored result the caller owns. The compiled statement
 * runs in a read-only transaction with a statement timeout.
 */
public final class ResultQueryService {

    static final int STATEMENT_TIMEOUT_MS = 3000;

    private final Jdbc jdbc;
    private final ResultHandles handles;
    private final int timeoutMs;

    public ResultQueryService(Jdbc jdbc, ResultHandles handles) {
        this(jdbc, handles, STATEMENT_TIMEOUT_MS);
    }

    /** @param timeoutMs the statement timeout of one query (tests shorten it to reach the refusal) */
    ResultQueryService(Jdbc jdbc, ResultHandles handles, int timeoutMs) {
        this.jdbc = jdbc;
        this.handles = handles;
        this.timeoutMs = timeoutMs;
    }

    public ResultQuery.Response query(UUID tenant, String principal, ResultQuery request) {
        ResultHandles.Handle handle = handles.require(tenant, principal, request.handleId());
        ResultQueryCompiler.Compiled compiled = ResultQueryCompiler.compile(handle, request);
        try {
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
                if (rows.isEmpty() && compiled.offset() > 0) {
                    total = -1; // past the end: the window count is not available without a second pass
                }
                long known = total < 0 ? compiled.offset() : total;
                return new ResultQuery.Response(rows, compiled.offset(), compiled.limit(), rows.size(), known,
                        handle.rowCount(), compiled.offset() + rows.size() < known);
            });
        } catch (Jdbc.DataAccessException e) {
            if (e.getCause() instanceof SQLException sql && "57014".equals(sql.getSQLState())) {
                throw ResultErrors.QUERY_TOO_EXPENSIVE.error("the query did not finish within "
                        + timeoutMs + " ms; narrow it with where or fewer groups", Map.of());
            }
            throw e;
        }
    }

    private static Map<String, Object> grouped(ResultSet rs, List<String> names) throws SQLException {
        Map<String, Object> row = new LinkedHashMap<>();
        for (int i = 0; i < names.size(); i++) {
            Object v = rs.getObject(i + 1);
            if (v instanceof org.postgresql.util.PGobject pg) {
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
