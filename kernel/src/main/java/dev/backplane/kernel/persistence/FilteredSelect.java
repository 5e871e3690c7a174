package dev.backplane.kernel.persistence;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * A parameterized SELECT whose WHERE clause grows with the filters a caller gave: each present filter
 * appends {@code AND <condition>} and binds its value, an absent one adds nothing. The SQL text
 * stays in the store that owns the table; values are always bound, never concatenated.
 */
public final class FilteredSelect {

    private final StringBuilder sql;
    private final List<Object> args;

    /** @param select the statement up to and including its fixed WHERE conditions */
    public FilteredSelect(String select, Object... args) {
        this.sql = new StringBuilder(select);
        this.args = new ArrayList<>(Arrays.asList(args));
    }

    /** {@code AND <condition>} when the value is present; every {@code ?} in the condition is bound to it. */
    public FilteredSelect and(String condition, Optional<?> value) {
        value.ifPresent(v -> {
            sql.append(" AND ").append(condition);
            condition.chars().filter(ch -> ch == '?').forEach(ch -> args.add(v));
        });
        return this;
    }

    /** {@code AND <condition>} (no parameters) when {@code on}. */
    public FilteredSelect andIf(boolean on, String condition) {
        if (on) {
            sql.append(" AND ").append(condition);
        }
        return this;
    }

    /** Text as it is, with the values of its parameters in order (a cursor condition, ORDER BY, LIMIT). */
    public FilteredSelect append(String text, Object... values) {
        sql.append(text);
        args.addAll(Arrays.asList(values));
        return this;
    }

    public <T> List<T> query(Jdbc jdbc, Jdbc.RowMapper<T> mapper) {
        return jdbc.query(sql.toString(), mapper, args.toArray());
    }
}
