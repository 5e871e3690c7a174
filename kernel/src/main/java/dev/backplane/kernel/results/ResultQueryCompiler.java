package dev.backplane.kernel.results;

import static dev.backplane.kernel.results.ResultQueryRules.check;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Compiles a {@link ResultQuery} into ONE parameterized, read-only statement over the stored JSONB
 * rows, which {@link ResultStore#run} executes. Every caller-supplied string — field names, values — is
 * bound as a parameter; operators, functions and directions are looked up in fixed tables; output names
 * never reach SQL. What a query may ask is {@link ResultQueryRules}'s to check.
 */
final class ResultQueryCompiler {

    private static final Map<String, String> COMPARE = Map.of("<", "<", "<=", "<=", ">", ">", ">=", ">=");

    /** A JSON number as numeric, anything else as NULL (so SUM/AVG/comparisons never fail on text). */
    private static final String NUMERIC =
            "CASE WHEN jsonb_typeof(r.row -> ?::text) = 'number' THEN (r.row ->> ?::text)::numeric END";

    /** The statement, its parameters, and how to read each output row. */
    record Compiled(String sql, List<Object> params, Mode mode, List<String> outputNames, int offset, int limit) {
    }

    /** Whole rows / projected rows come back as one JSON column; grouped rows as named columns. */
    enum Mode { ROWS, GROUPED }

    private final ResultQueryRules rules;
    private final List<Object> params = new ArrayList<>();

    private ResultQueryCompiler(ResultQueryRules rules) {
        this.rules = rules;
    }

    static Compiled compile(ResultHandles.Handle handle, ResultQuery request) {
        return new ResultQueryCompiler(new ResultQueryRules(handle.keys())).build(handle, request);
    }

    private Compiled build(ResultHandles.Handle handle, ResultQuery r) {
        int offset = ResultQueryRules.offset(r);
        int limit = ResultQueryRules.limit(r);
        ResultQuery.Query query = r.query().orElse(new ResultQuery.Query(List.of(), List.of(), List.of(), List.of(),
                List.of(), Optional.empty()));
        return ResultQueryRules.grouped(query) ? grouped(handle, query, offset, limit)
                : rows(handle, query, offset, limit);
    }

    private Compiled rows(ResultHandles.Handle handle, ResultQuery.Query q, int offset, int limit) {
        StringBuilder sql = new StringBuilder("SELECT ");
        if (q.select().isEmpty()) {
            sql.append("r.row");
        } else {
            sql.append("jsonb_build_object(");
            for (int i = 0; i < q.select().size(); i++) {
                String f = rules.field(q.select().get(i));
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
            sql.append("r.row -> ?::text ").append(ResultQueryRules.direction(o)).append(" NULLS LAST, ");
            params.add(rules.field(o.field()));
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
            String f = rules.field(g);
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
            String fn = ResultQueryRules.function(a);
            if (a.field().isEmpty()) {
                columns.add("count(*)");
            } else {
                String f = rules.field(a.field().get());
                columns.add(fn.equals("COUNT") ? "count(r.row -> ?::text)"
                        : fn.toLowerCase(Locale.ROOT) + "(" + NUMERIC + ")");
                params.add(f);
                if (!fn.equals("COUNT")) {
                    params.add(f);
                }
            }
            String name = ResultQueryRules.outputName(a, fn);
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
        StringBuilder sql = new StringBuilder("SELECT q.*, count(*) OVER () AS total FROM (").append(inner)
                .append(") q");
        sql.append(" ORDER BY ");
        for (ResultQuery.Order o : q.orderBy()) {
            Integer pos = positions.get(o.field());
            check(pos != null, "a grouped query orders by its group fields or aggregate names " + positions.keySet()
                    + ", not '" + o.field() + "'");
            sql.append(pos).append(' ').append(ResultQueryRules.direction(o)).append(" NULLS LAST, ");
        }
        sql.append("1 LIMIT ? OFFSET ?");
        params.add(limit);
        params.add(offset);
        return new Compiled(sql.toString(), List.copyOf(params), Mode.GROUPED, List.copyOf(names), offset, limit);
    }

    private void where(StringBuilder sql, List<ResultQuery.Predicate> predicates) {
        for (ResultQuery.Predicate p : predicates) {
            String op = ResultQueryRules.op(p);
            String f = rules.field(p.field());
            JsonNode v = p.value();
            switch (op) {
                case "=", "!=", "<>" -> {
                    sql.append(" AND r.row -> ?::text ").append(op.equals("=") ? "=" : "<>").append(" ?::jsonb");
                    params.add(f);
                    params.add(ResultQueryRules.scalar(v, op).toString());
                }
                case "<", "<=", ">", ">=" -> {
                    JsonNode s = ResultQueryRules.scalar(v, op);
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
                        throw ResultQueryRules.invalid(op + " compares numbers or strings, not " + s.getNodeType());
                    }
                }
                case "IN" -> {
                    sql.append(" AND r.row -> ?::text IN (SELECT jsonb_array_elements(?::jsonb))");
                    params.add(f);
                    params.add(ResultQueryRules.inValues(v).toString());
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
                default -> throw ResultQueryRules.invalid("op must be one of = != < <= > >= IN, IS NULL, IS NOT NULL; "
                        + "got '" + p.op() + "'");
            }
        }
    }
}
