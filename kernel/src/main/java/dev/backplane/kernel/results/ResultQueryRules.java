package dev.backplane.kernel.results;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.errors.DomainException;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What a {@link ResultQuery} may ask, checked before any SQL text is built: the bounds (offset, limit, how
 * many predicates, fields, groups and orderings), field names that are keys of the stored rows, operators,
 * aggregate functions and output names from fixed sets, and scalar values PostgreSQL can hold. Anything
 * else is {@code invalid_query}.
 */
final class ResultQueryRules {

    static final int MAX_LIMIT = 500;
    static final int DEFAULT_LIMIT = 50;
    static final int MAX_GROUP_BY = 4;
    static final int MAX_ORDER_BY = 4;
    static final int MAX_PREDICATES = 32;
    static final int MAX_SELECT = 64;
    static final int MAX_IN_VALUES = 1000;
    static final int MAX_OFFSET = 1_000_000;
    static final Set<String> FUNCTIONS = Set.of("COUNT", "SUM", "MIN", "MAX", "AVG");
    private static final Pattern ALIAS = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,63}");

    private final Set<String> keys;

    /** @param keys the keys of the stored rows: the only field names a query may use */
    ResultQueryRules(Set<String> keys) {
        this.keys = keys;
    }

    /** The offset asked for (default 0), within 0..{@value #MAX_OFFSET}. */
    static int offset(ResultQuery r) {
        int offset = r.offset().orElse(0);
        check(offset >= 0 && offset <= MAX_OFFSET, "offset must be 0.." + MAX_OFFSET);
        return offset;
    }

    /** The query's limit, else the request's, else {@value #DEFAULT_LIMIT}; clamped to 1..{@value #MAX_LIMIT}. */
    static int limit(ResultQuery r) {
        Optional<Integer> asked = r.query().flatMap(ResultQuery.Query::limit).or(r::limit);
        return Math.max(1, Math.min(MAX_LIMIT, asked.orElse(DEFAULT_LIMIT)));
    }

    /**
     * Checks the query's size and shape; returns whether it is grouped (group fields or aggregates), which
     * cannot be combined with a select.
     */
    static boolean grouped(ResultQuery.Query query) {
        check(query.where().size() <= MAX_PREDICATES, "at most " + MAX_PREDICATES + " where predicates");
        check(query.groupBy().size() <= MAX_GROUP_BY, "group_by takes at most " + MAX_GROUP_BY + " fields");
        check(query.orderBy().size() <= MAX_ORDER_BY, "order_by takes at most " + MAX_ORDER_BY + " terms");
        check(query.select().size() <= MAX_SELECT, "select takes at most " + MAX_SELECT + " fields");
        boolean grouped = !query.groupBy().isEmpty() || !query.aggregates().isEmpty();
        check(!(grouped && !query.select().isEmpty()), "select cannot be combined with group_by or aggregates "
                + "(the output of a grouped query is its group fields and aggregates)");
        return grouped;
    }

    /** {@code name} if it is a key of the stored rows. */
    String field(String name) {
        check(name != null && keys.contains(name), "unknown field '" + name + "'; the stored rows have "
                + (keys.size() > 50 ? keys.size() + " fields" : keys));
        return name;
    }

    /** The aggregate's function, upper-cased, one of {@link #FUNCTIONS}; only COUNT goes without a field. */
    static String function(ResultQuery.Aggregate a) {
        String fn = a.fn() == null ? "" : a.fn().toUpperCase(Locale.ROOT);
        check(FUNCTIONS.contains(fn), "aggregate fn must be one of " + FUNCTIONS + ", got '" + a.fn() + "'");
        check(a.field().isPresent() || fn.equals("COUNT"), fn + " needs a field");
        return fn;
    }

    /** The aggregate's output name: {@code as}, else {@code count} or {@code <fn>_<field>}; letters, digits, '_'. */
    static String outputName(ResultQuery.Aggregate a, String fn) {
        String name = a.as().orElse(a.field().map(f -> fn.toLowerCase(Locale.ROOT) + "_" + f).orElse("count"));
        check(ALIAS.matcher(name).matches(), "aggregate name '" + name + "' must be letters, digits and '_' "
                + "(set it with as)");
        return name;
    }

    /** A predicate's operator, upper-cased with single spaces ({@code is  not null} is {@code IS NOT NULL}). */
    static String op(ResultQuery.Predicate p) {
        check(p != null && p.op() != null, "every predicate needs field, op and (except IS NULL) value");
        return p.op().trim().toUpperCase(Locale.ROOT).replaceAll("\\s+", " ");
    }

    /** The one value {@code op} compares with: a JSON scalar without NUL characters. */
    static JsonNode scalar(JsonNode v, String op) {
        check(v != null && v.isValueNode(), op + " needs a scalar value (string, number, boolean or null)");
        noNul(v);
        return v;
    }

    /** IN's values: an array of at most {@value #MAX_IN_VALUES} scalars without NUL characters. */
    static JsonNode inValues(JsonNode v) {
        check(v != null && v.isArray(), "IN needs an array value");
        check(v.size() <= MAX_IN_VALUES, "IN takes at most " + MAX_IN_VALUES + " values");
        v.forEach(e -> {
            check(e.isValueNode(), "IN values must be scalars");
            noNul(e);
        });
        return v;
    }

    /** PostgreSQL's jsonb and text cannot hold U+0000; refuse it up front instead of failing in the database. */
    private static void noNul(JsonNode v) {
        check(!(v.isTextual() && v.asText().indexOf('\u0000') >= 0), "values must not contain NUL (U+0000) characters");
    }

    /** {@code ASC} or {@code DESC} (default asc). */
    static String direction(ResultQuery.Order o) {
        String d = o.dir().orElse("asc").toLowerCase(Locale.ROOT);
        check(d.equals("asc") || d.equals("desc"), "order direction must be asc or desc, got '" + d + "'");
        return d.equals("asc") ? "ASC" : "DESC";
    }

    static void check(boolean ok, String message) {
        if (!ok) {
            throw invalid(message);
        }
    }

    static DomainException invalid(String message) {
        return CommonErrors.INVALID_QUERY.error(message, Map.of());
    }
}
