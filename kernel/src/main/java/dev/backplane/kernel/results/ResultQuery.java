package dev.backplane.kernel.results;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Optional;

/**
 * A result_query request: page through a stored result ({@code offset}, {@code limit}), or query it
 * with a structured {@link Query}. No raw SQL is accepted on any transport.
 */
public record ResultQuery(String handleId, Optional<Integer> offset, Optional<Integer> limit, Optional<Query> query) {

    public ResultQuery {
        offset = offset == null ? Optional.empty() : offset;
        limit = limit == null ? Optional.empty() : limit;
        query = query == null ? Optional.empty() : query;
    }

    /**
     * Query mode.
     *
     * @param where predicates, all of which must hold
     * @param select fields to keep (default: whole rows)
     * @param groupBy up to 4 fields
     * @param aggregates COUNT, SUM, MIN, MAX, AVG
     * @param orderBy up to 4 terms
     * @param limit output rows (clamped to 500)
     */
    public record Query(List<Predicate> where, List<String> select, List<String> groupBy, List<Aggregate> aggregates,
                        List<Order> orderBy, Optional<Integer> limit) {
        public Query {
            where = where == null ? List.of() : where;
            select = select == null ? List.of() : select;
            groupBy = groupBy == null ? List.of() : groupBy;
            aggregates = aggregates == null ? List.of() : aggregates;
            orderBy = orderBy == null ? List.of() : orderBy;
            limit = limit == null ? Optional.empty() : limit;
        }
    }

    /**
     * {@code field op value}: op is one of = != < <= > >= IN, IS NULL, IS NOT NULL.
     *
     * @param value a JSON value (an array for IN; absent for IS NULL)
     */
    public record Predicate(String field, String op, JsonNode value) {
    }

    /**
     * An aggregate: fn is COUNT, SUM, MIN, MAX or AVG; field is optional for COUNT.
     *
     * @param as the output name (default fn or fn_field)
     */
    public record Aggregate(String fn, Optional<String> field, Optional<String> as) {
        public Aggregate {
            field = field == null ? Optional.empty() : field;
            as = as == null ? Optional.empty() : as;
        }
    }

    /**
     * One ordering term: a field, a group field or an aggregate's output name.
     *
     * @param dir asc (default) or desc
     */
    public record Order(String field, Optional<String> dir) {
        public Order {
            dir = dir == null ? Optional.empty() : dir;
        }
    }

    /** The answer (SPEC "result_query response"). */
    public record Response(List<Object> rows, int offset, int limit, int returnedRows, long totalRows, int storedRows,
                           boolean truncated) {
    }
}
