package dev.backplane.kernel.results;

import dev.backplane.kernel.persistence.Jdbc;
import java.sql.SQLException;
import java.util.Map;
import java.util.UUID;

/**
 * result_query: pages through or queries a stored result the caller owns. The compiled statement
 * runs in a read-only transaction with a statement timeout ({@link ResultStore#run}).
 */
public final class ResultQueryService {

    static final int STATEMENT_TIMEOUT_MS = 3000;

    private final ResultStore store;
    private final ResultHandles handles;
    private final int timeoutMs;

    public ResultQueryService(Jdbc jdbc, ResultHandles handles) {
        this(jdbc, handles, STATEMENT_TIMEOUT_MS);
    }

    /** @param timeoutMs the statement timeout of one query (tests shorten it to reach the refusal) */
    ResultQueryService(Jdbc jdbc, ResultHandles handles, int timeoutMs) {
        this.store = new ResultStore(jdbc);
        this.handles = handles;
        this.timeoutMs = timeoutMs;
    }

    public ResultQuery.Response query(UUID tenant, String principal, ResultQuery request) {
        ResultHandles.Handle handle = handles.require(tenant, principal, request.handleId());
        ResultQueryCompiler.Compiled compiled = ResultQueryCompiler.compile(handle, request);
        ResultStore.Page page;
        try {
            page = store.run(compiled, timeoutMs);
        } catch (Jdbc.DataAccessException e) {
            if (e.getCause() instanceof SQLException sql && "57014".equals(sql.getSQLState())) {
                throw ResultErrors.QUERY_TOO_EXPENSIVE.error("the query did not finish within "
                        + timeoutMs + " ms; narrow it with where or fewer groups", Map.of());
            }
            throw e;
        }
        return respond(page, compiled.offset(), compiled.limit(), handle.rowCount());
    }

    /**
     * The response for a page: past the end (no row, offset above 0) the window count is not available without a
     * second pass, so the total known is the offset.
     */
    static ResultQuery.Response respond(ResultStore.Page page, int offset, int limit, int storedRows) {
        long known = page.total() < 0 ? offset : page.total();
        int returned = page.rows().size();
        return new ResultQuery.Response(page.rows(), offset, limit, returned, known, storedRows,
                offset + returned < known);
    }
}
