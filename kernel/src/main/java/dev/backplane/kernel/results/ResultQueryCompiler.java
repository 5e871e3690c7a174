package dev.backplane.kernel.results;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.errors.DomainException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Compiles a {@link ResultQuery} into ONE parameterized, read-only statement over the stored JSONB
 * rows. Every caller-supplied string — field names, values — is bound as a parameter; operators,
 * functions and directions are looked up in fixed tables; output names never reach SQL. Field names
 * must be keys of the stored rows.
 */
final class ResultQueryCompiler {

    static final int MAX_LIMIT = 500;
    static final int DEFAULT_LIMIT = 50;
    static final int MAX_GROUP_BY = 4;
    static final int MAX_ORDER_BY = 4;
    static final int MAX_PREDICATES = 32;
    static final int MAX_SELECT = 64;
    static final int MAX_IN_VALUES = 1000;
    static final int MAX_OFFSET = 1_000_000;
    private static final Pattern ALIAS = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,63}");
    private static final Map<String, String> COMPARE = Map.of("<", "<", "<=", "<=", ">", ">", ">=", ">=");
    private static final Set<String> FUNCTIONS = Set.of("COUNT", "SUM", "MIN", "MAX", "AVG");

    /** The statement, its parameters, and how to read each output row. */
    record Compiled(String sql, List<Object> params, Mode mode, List<String> outputNames, int offset, int limit) {
    }

    /** Whole rows / projected rows come back as one JSON column; grouped rows as named columns. */
    enum Mode { ROWS, GROUPED }

    private final Set<String> keys;
    private final List<Object> params = new ArrayList<>();

    private ResultQueryCompiler(Set<String> keys) {
        this.keys = keys;
    }

    static Compiled compile(ResultHandles.Handle handle, ResultQuery request) {
        return new ResultQueryCompiler(handle.keys()).build(handle, request);
    }

    private Compiled build(ResultHandles.Handle handle, ResultQuery r) {
        int offset = r.offset().orElse(0);
        check(offset >= 0 && offset <= MAX_OFFSET, "offset must be 0.." + MAX_OFFSET);
        Optional<ResultQuery.Query> q = r.query();
        int limit = Math.max(1, Math.min(MAX_LIMIT, q.flatMap(ResultQuery.Query::limit).or(r::limit).orElse(DEFAULT_LIMIT)));
        ResultQuery.Query query = q.orElse(new ResultQuery.Query(List.of(), List.of(), List.of(), List.of(), List.of(),
                Optional.empty()));
        check(query.where().size() <= MAX_PREDICATES, "at most " + MAX_PREDICATES + " where predicates");
        check(query.groupBy().size() <= MAX_GROUP_BY, "group_by takes at most " + MAX_GROUP_BY + " fields");
        check(query.orderBy().size() <= MAX_ORDER_BY, "order_by takes at most " + MAX_ORDER_BY + " terms");
        check(query.select().size() <= MAX_SELECT, "select takes at most " + MAX_SELECT + " fields");
        boolean grouped = !query.groupBy().isEmpty() || !query.aggregates().isEmpty();
        check(!(grouped && !query.select().isEmpty()), "select cannot be combined with group_by or aggregates "
                + "(the output of a grouped query is its group fields and aggregates)");
        return grouped ? grouped(handle, query, offset, limit) : rows(handle, query, offset, limit);
    }

    private Compiled rows(ResultHandles.Handle handle, ResultQuery.Query q, int offset, int limit) {
        StringBuilder sql = new StringBuilder("SELECT ");
        if (q.select().isEmpty()) {
            sql.append("r.row");
        } else {
            sql.append("jsonb_build_object(");
            for (int i = 0; i < q.select().size(); i++) {
                String f = field(q.select().get(i));
                sql.append(i == 0 ? "" : ", ").append("?::text, r.row -> ?::text");
                params.add(f);
                params.add(f);
            }
            sql.append(")");
        }
        sql.append(" AS out, count(*) OVER () AS total FROM results_rows r WHERE r.handle_id = ?");
        params.add(handle.id());
        where(sql, q.where());
        sql.append(" ORDER BY ");
        for (ResultQuery.Order o : q.orderBy()) {
            sql.append("r.row -> ?::text ").append(direction(o)).append(" NULLS LAST, ");
            params.add(field(o.field()));
        }
        sql.append("r.ordinal LIMIT ? OFFSET ?");
        params.add(limit);
        params.add(offset);
        return new Compiled(sql.toString(), List.copyOf(params), Mode.ROWS, List.of(), offset, limit);
    }

    private Compiled grouped(ResultHandles.Handle handle, ResultQuery.Query q, int offset, int limit) {
        List<String> names = new ArrayList<>();
        StringBuilder inner = new StringBuilder("SELECT ");
        List<String> columns = new ArrayList<>();
        for (String g : q.groupBy()) {
            String f = field(g);
            check(!names.contains(f), "group_by names '" + f + "' twice");
            columns.add("r.row -> ?::text");
            params.add(f);
            names.add(f);
        }
        Map<String, Integer> positions = new LinkedHashMap<>();
        for (int i = 0; i < names.size(); i++) {
            positions.put(names.get(i), i + 1);
        }
        for (ResultQuery.Aggregate a : q.aggregates()) {
            String fn = a.fn() == null ? "" : a.fn().toUpperCase(Locale.ROOT);
            check(FUNCTIONS.contains(fn), "aggregate fn must be one of " + FUNCTIONS + ", got '" + a.fn() + "'");
            String name;
            if (a.field().isEmpty()) {
                check(fn.equals("COUNT"), fn + " needs a field");
                columns.add("count(*)");
                name = a.as().orElse("count");
            } else {
                String f = field(a.field().get());
                name = a.as().orElse(fn.toLowerCase(Locale.ROOT) + "_" + f);
                if (fn.equals("COUNT")) {
                    columns.add("count(r.row -> ?::text)");
                    params.add(f);
                } else if (fn.equals("MIN") || fn.equals("MAX")) {
                    columns.add(fn.toLowerCase(Locale.ROOT) + "(" + NUMERIC + ")");
                    params.add(f);
                    params.add(f);
                } else {
                    columns.add(fn.toLowerCase(Locale.ROOT) + "(" + NUMERIC + ")");
                    params.add(f);
                    params.add(f);
                }
            }
            check(ALIAS.matcher(name).matches(), "aggregate name '" + name + "' must be letters, digits and '_' "
                    + "(set it with as)");
            check(!positions.containsKey(name), "output name '" + name + "' is used twice");
            names.add(name);
            positions.put(name, names.size());
        }
        inner.append(String.join(", ", columns)).append(" FROM results_rows r WHERE r.handle_id = ?");
        params.add(handle.id());
        where(inner, q.where());
        if (!q.groupBy().isEmpty()) {
            inner.append(" GROUP BY ");
            for (int i = 1; i <= q.groupBy().size(); i++) {
                inner.append(i == 1 ? "" : ", ").append(i);
            }
        }
        StringBuilder sql = new StringBuilder("SELECT q.*, count(*) OVER () AS total FROM (").append(inner).append(") q");
        sql.append(" ORDER BY ");
        for (ResultQuery.Order o : q.orderBy()) {
            Integer pos = positions.get(o.field());
            check(pos != null, "a grouped query orders by its group fields or aggregate names " + positions.keySet()
                    + ", not '" + o.field() + "'");
            sql.append(pos).append(' ').append(direction(o)).append(" NULLS LAST, ");
        }
        sql.append("1 LIMIT ? OFFSET ?");
        params.add(limit);
        params.add(offset);
        return new Compiled(sql.toString(), List.copyOf(params), Mode.GROUPED, List.copyOf(names), offset, limit);
    }

    /** A JSON number as numeric, anything else as NULL (so SUM/AVG/comparisons never fail on text). */
    private static final String NUMERIC =
            "CASE WHEN jsonb_typeof(r.row -> ?::text) = 'number' THEN (r.row ->> ?::text)::numeric END";

    private void where(StringBuilder sql, List<ResultQuery.Predicate> predicates) {
        for (ResultQuery.Predicate p : predicates) {
            check(p != null && p.op() != null, "every predicate needs field, op and (except IS NULL) value");
            String f = field(p.field());
            String op = p.op().trim().toUpperCase(Locale.ROOT).replaceAll("\\s+", " ");
            JsonNode v = p.value();
            switch (op) {
                case "=" -> {
                    sql.append(" AND r.row -> ?::text = ?::jsonb");
                    params.add(f);
                    params.add(scalar(v, op).toString());
                }
                case "!=", "<>" -> {
                    sql.append(" AND r.row -> ?::text <> ?::jsonb");
                    params.add(f);
                    params.add(scalar(v, op).toString());
                }
                case "<", "<=", ">", ">=" -> {
                    JsonNode s = scalar(v, op);
                    if (s.isNumber()) {
                        sql.append(" AND ").append(NUMERIC).append(' ').append(COMPARE.get(op)).append(" ?");
                        params.add(f);
                        params.add(f);
                        params.add(s.decimalValue());
                    } else if (s.isTextual()) {
                        sql.append(" AND jsonb_typeof(r.row -> ?::text) = 'string' AND r.row ->> ?::text ")
                                .append(COMPARE.get(op)).append(" ?");
                        params.add(f);
                        params.add(f);
                        params.add(s.asText());
                    } else {
                        throw invalid(op + " compares numbers or strings, not " + s.getNodeType());
                    }
                }
                case "IN" -> {
                    check(v != null && v.isArray(), "IN needs an array value");
                    check(v.size() <= MAX_IN_VALUES, "IN takes at most " + MAX_IN_VALUES + " values");
                    v.forEach(e -> {
                        check(e.isValueNode(), "IN values must be scalars");
                        noNul(e);
                    });
                    sql.append(" AND r.row -> ?::text IN (SELECT jsonb_array_elements(?::jsonb))");
                    params.add(f);
                    params.add(v.toString());
                }
                case "IS NULL" -> {
                    sql.append(" AND (r.row -> ?::text IS NULL OR r.row -> ?::text = 'null'::jsonb)");
                    params.add(f);
                    params.add(f);
                }
                case "IS NOT NULL" -> {
                    sql.append(" AND r.row -> ?::text IS NOT NULL AND r.row -> ?::text <> 'null'::jsonb");
                    params.add(f);
                    params.add(f);
                }
                default -> throw invalid("op must be one of = != < <= > >= IN, IS NULL, IS NOT NULL; got '" + p.op() + "'");
            }
        }
    }

    private static JsonNode scalar(JsonNode v, String op) {
        check(v != null && v.isValueNode(), op + " needs a scalar value (string, number, boolean or null)");
        noNul(v);
        return v;
    }

    /** PostgreSQL's jsonb and text cannot hold U+0000; refuse it up front instead of failing in the database. */
    private static void noNul(JsonNode v) {
        check(!(v.isTextual() && v.asText().indexOf('\u0000') >= 0), "values must not contain NUL (U+0000) characters");
    }

    private String field(String name) {
        check(name != null && keys.contains(name), "unknown field '" + name + "'; the stored rows have "
                + (keys.size() > 50 ? keys.size() + " fields" : keys));
        return name;
    }

    private static String direction(ResultQuery.Order o) {
        String d = o.dir().orElse("asc").toLowerCase(Locale.ROOT);
        check(d.equals("asc") || d.equals("desc"), "order direction must be asc or desc, got '" + d + "'");
        return d.equals("asc") ? "ASC" : "DESC";
    }

    private static void check(boolean ok, String message) {
        if (!ok) {
            throw invalid(message);
        }
    }

    private static DomainException invalid(String message) {
        return CommonErrors.INVALID_QUERY.error(message, Map.of());
    }
}
