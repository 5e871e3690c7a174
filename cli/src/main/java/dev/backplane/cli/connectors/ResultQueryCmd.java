package dev.backplane.cli.connectors;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.Http;
import dev.backplane.cli.common.RequestBody;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code svc operation result-query} */
@Command(name = "result-query", description = "Page through or query a stored (reduced) result.")
final class ResultQueryCmd extends BackplaneCommand {
    private static final Pattern WHERE = Pattern.compile(
            "\\s*([^\\s]+)\\s+(IS NOT NULL|IS NULL|IN|<=|>=|!=|=|<|>)\\s*(.*)", Pattern.CASE_INSENSITIVE);
    private static final Pattern AGG = Pattern.compile("\\s*(\\w+)\\s*(?:\\(\\s*([^)\\s]*)\\s*\\))?(?:\\s+as\\s+(\\w+))?\\s*",
            Pattern.CASE_INSENSITIVE);

    @Parameters(index = "0", paramLabel = "<handle_id>") String handle;
    @Option(names = "--where", description = "'field op value' (ops = != < <= > >= IN, IS NULL, IS NOT NULL); repeatable")
    List<String> where = new ArrayList<>();
    @Option(names = "--select", split = ",", description = "fields to keep") List<String> select = new ArrayList<>();
    @Option(names = "--group-by", split = ",", description = "up to 4 fields") List<String> groupBy = new ArrayList<>();
    @Option(names = "--aggregate", description = "count, sum(field), avg(field), min(field), max(field) [as name]; repeatable")
    List<String> aggregates = new ArrayList<>();
    @Option(names = "--order-by", split = ",", description = "'field [asc|desc]', up to 4")
    List<String> orderBy = new ArrayList<>();
    @Option(names = "--query-limit", description = "rows of a query (clamped to 500)") Integer queryLimit;
    @Option(names = "--limit", description = "page size (default 50, max 500)") Integer limit;
    @Option(names = "--offset", description = "rows to skip") Integer offset;

    private ResultQuery body;

    /** The body of POST /api/v1/operations/result-query. */
    @RequestBody
    record ResultQuery(String handleId, Integer offset, Integer limit, Query query) {
    }

    /** A query over the stored rows; empty parts are left out. */
    @RequestBody
    record Query(List<Predicate> where, List<String> select, List<String> groupBy, List<Aggregate> aggregates,
            List<Order> orderBy, Integer limit) {
        boolean isEmpty() {
            return where == null && select == null && groupBy == null && aggregates == null && orderBy == null
                    && limit == null;
        }
    }

    /** {@code value} is absent for IS NULL and IS NOT NULL; a literal null is sent as JSON null. */
    @RequestBody
    record Predicate(String field, String op, JsonNode value) {
    }

    @RequestBody
    record Aggregate(String fn, String field, String as) {
    }

    @RequestBody
    record Order(String field, String dir) {
    }

    @Override
    protected void validate() {
        if (groupBy.size() > 4) {
            throw CliException.usage("--group-by takes at most 4 fields");
        }
        if (orderBy.size() > 4) {
            throw CliException.usage("--order-by takes at most 4 terms");
        }
        if (limit != null && (limit < 1 || limit > 500)) {
            throw CliException.usage("--limit must be 1..500");
        }
        List<Predicate> preds = new ArrayList<>();
        for (String w : where) {
            Matcher m = WHERE.matcher(w);
            if (!m.matches()) {
                throw CliException.usage("--where '" + w + "' is not 'field op value'");
            }
            String op = m.group(2).toUpperCase(Locale.ROOT);
            preds.add(new Predicate(m.group(1), op, op.startsWith("IS") ? null
                    : Http.JSON.valueToTree(value(m.group(3).trim()))));
        }
        List<Aggregate> aggs = new ArrayList<>();
        for (String a : aggregates) {
            Matcher m = AGG.matcher(a);
            if (!m.matches()) {
                throw CliException.usage("--aggregate '" + a + "' is not fn(field) [as name]");
            }
            aggs.add(new Aggregate(m.group(1).toUpperCase(Locale.ROOT),
                    m.group(2) == null || m.group(2).isEmpty() ? null : m.group(2), m.group(3)));
        }
        List<Order> order = new ArrayList<>();
        for (String o : orderBy) {
            String[] parts = o.trim().split("\\s+");
            order.add(new Order(parts[0], parts.length > 1 ? parts[1] : null));
        }
        Query q = new Query(nonEmpty(preds), nonEmpty(select), nonEmpty(groupBy), nonEmpty(aggs), nonEmpty(order),
                queryLimit == null ? null : Math.min(500, queryLimit));
        body = new ResultQuery(handle, offset, limit, q.isEmpty() ? null : q);
    }

    private static <T> List<T> nonEmpty(List<T> list) {
        return list.isEmpty() ? null : list;
    }

    private static Object value(String text) {
        try {
            return Http.JSON.readValue(text, Object.class);
        } catch (java.io.IOException e) {
            if (text.startsWith("[") && text.endsWith("]")) {
                List<String> items = new ArrayList<>();
                for (String s : text.substring(1, text.length() - 1).split(",")) {
                    items.add(s.trim());
                }
                return items;
            }
            return text;
        }
    }

    @Override
    protected void execute(Session s) {
        send(s, "POST", ApiPaths.OPERATIONS_RESULT_QUERY, body, r -> {
            r.path("rows").forEach(row -> ctx.out().println(row.toString()));
            ctx.out().println("(" + r.path("returned_rows").asInt() + " row(s) from offset " + r.path("offset").asInt()
                    + " of " + r.path("total_rows").asLong() + "; " + r.path("stored_rows").asInt() + " stored"
                    + (r.path("truncated").asBoolean() ? "; more: --offset " + (r.path("offset").asInt()
                    + r.path("returned_rows").asInt()) : "") + ")");
        });
    }
}
