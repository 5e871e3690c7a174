package dev.backplane.kernel.persistence;

import dev.backplane.kernel.util.JsonMapping;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Small JDBC helpers: parameterized statements only, and a transaction that commits when the body
 * returns and rolls back when it throws. Stores build on these; SQL stays next to the store.
 */
public final class Jdbc {

    /**
     * A {@code FROM} (or {@code USING}) item that makes the transaction it runs in commit without waiting for its WAL
     * flush: {@code synchronous_commit} off for that transaction only ({@code set_config(..., true)} is
     * {@code SET LOCAL}), in the statement's own round trip rather than one of its own. PostgreSQL's WAL writer
     * flushes the commit within moments, with whatever else is written; and any later commit that does wait for its
     * flush flushes the WAL up to its own record, this one's included. Only for a write whose loss in a crash is
     * harmless or redone (each use says why). It takes effect when the statement finds a row to write: one that
     * matches nothing may never evaluate it, and its transaction then commits as usual.
     */
    public static final String UNFLUSHED_COMMIT = "(SELECT set_config('synchronous_commit', 'off', true)) AS unflushed";

    private final DataSource dataSource;

    public Jdbc(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** A row mapper. */
    @FunctionalInterface
    public interface RowMapper<T> {
        T map(ResultSet rs) throws SQLException;
    }

    /** Work done inside one transaction. */
    @FunctionalInterface
    public interface TxBody<T> {
        T run(Connection c) throws SQLException;
    }

    /** A value bound as {@code jsonb} (serialized with the kernel's JSON mapper). */
    public static org.postgresql.util.PGobject jsonb(Object value) {
        try {
            org.postgresql.util.PGobject o = new org.postgresql.util.PGobject();
            o.setType("jsonb");
            o.setValue(dev.backplane.kernel.util.JsonMapping.write(value));
            return o;
        } catch (SQLException e) {
            throw new DataAccessException(e);
        }
    }

    /** A {@code jsonb} column holding an object, as an ordered map; a value that is not JSON is a data error. */
    public static Map<String, Object> jsonObject(ResultSet rs, String column) throws SQLException {
        try {
            return dev.backplane.kernel.util.JsonMapping.mapper().readValue(rs.getString(column), JSON_OBJECT);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new SQLException(column + " is not a JSON object", e);
        }
    }

    /** A {@code jsonb} column as a JSON tree; SQL NULL is a missing node. */
    public static com.fasterxml.jackson.databind.JsonNode jsonTree(ResultSet rs, String column) throws SQLException {
        String text = rs.getString(column);
        if (text == null) {
            return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
        }
        try {
            return dev.backplane.kernel.util.JsonMapping.mapper().readTree(text);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new SQLException(column + " is not JSON", e);
        }
    }

    private static final com.fasterxml.jackson.core.type.TypeReference<LinkedHashMap<String, Object>> JSON_OBJECT =
            new com.fasterxml.jackson.core.type.TypeReference<>() { };

    public <T> T inTransaction(TxBody<T> body) {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
                T result = body.run(c);
                c.commit();
                return result;
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
        } catch (SQLException e) {
            throw new DataAccessException(e);
        }
    }

    /** Runs {@code body} on a pooled connection as the pool hands it out (auto-commit on; the pool resets what it changes). */
    public <T> T inConnection(TxBody<T> body) {
        try (Connection c = dataSource.getConnection()) {
            return body.run(c);
        } catch (SQLException e) {
            throw new DataAccessException(e);
        }
    }

    public <T> List<T> query(String sql, RowMapper<T> mapper, Object... params) {
        try (Connection c = dataSource.getConnection()) {
            return query(c, sql, mapper, params);
        } catch (SQLException e) {
            throw new DataAccessException(e);
        }
    }

    public <T> Optional<T> queryOne(String sql, RowMapper<T> mapper, Object... params) {
        List<T> rows = query(sql, mapper, params);
        return rows.isEmpty() ? Optional.empty() : Optional.of(rows.getFirst());
    }

    public int update(String sql, Object... params) {
        try (Connection c = dataSource.getConnection()) {
            return update(c, sql, params);
        } catch (SQLException e) {
            throw new DataAccessException(e);
        }
    }

    public static <T> List<T> query(Connection c, String sql, RowMapper<T> mapper, Object... params)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            bind(ps, params);
            try (ResultSet rs = ps.executeQuery()) {
                List<T> out = new ArrayList<>();
                while (rs.next()) {
                    out.add(mapper.map(rs));
                }
                return out;
            }
        }
    }

    public static int update(Connection c, String sql, Object... params) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            bind(ps, params);
            return ps.executeUpdate();
        }
    }

    private static void bind(PreparedStatement ps, Object... params) throws SQLException {
        for (int i = 0; i < params.length; i++) {
            ps.setObject(i + 1, params[i]);
        }
    }

    /** A database failure; never carries credentials. */
    public static final class DataAccessException extends RuntimeException {
        public DataAccessException(SQLException cause) {
            super("database error: " + cause.getMessage() + " (SQLState " + cause.getSQLState() + ")", cause);
        }
    }
}
