package dev.backplane.cli.connectors;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.Envelopes;
import dev.backplane.cli.common.Http;
import dev.backplane.cli.common.TextArgs;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code svc operation call / preview / result-query}: the dispatch verbs. */
final class OperationCalls {

    private OperationCalls() {
    }

    static Map<String, Object> params(String text) {
        if (text == null) {
            return Map.of();
        }
        String json = TextArgs.read(text, "--params");
        try {
            JsonNode node = Http.JSON.readTree(json);
            if (node == null || !node.isObject()) {
                throw CliException.usage("--params must be a JSON object, e.g. '{\"namespace\": \"web\"}'");
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> map = Http.JSON.convertValue(node, Map.class);
            return map;
        } catch (java.io.IOException e) {
            throw CliException.usage("--params is not valid JSON: " + e.getMessage());
        }
    }

    static Map<String, Object> body(String connectorId, String opId, String target, Map<String, Object> params) {
        if (target == null) {
            throw CliException.usage("--target is required");
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("connector_id", connectorId);
        body.put("op_id", opId);
        body.put("target", target);
        body.put("params", params);
        return body;
    }

    /** The arguments call and preview share: connector, operation, target and params. */
    abstract static class OperationRequestCommand extends BackplaneCommand {
        @Parameters(index = "0", paramLabel = "<connector_id>")
        String connectorId;
        @Parameters(index = "1", paramLabel = "<op_id>")
        String opId;
        @Option(names = "--target", description = "target name or alias")
        String target;
        @Option(names = "--params", description = "params as inline JSON or @file")
        String params;

        Map<String, Object> parsed;

        @Override
        protected void validate() {
            parsed = params(params);
            body(connectorId, opId, target, parsed);
        }
    }

    /** call */
    @Command(name = "call", description = "Call an operation through the backplane's pipeline.")
    static final class Call extends OperationRequestCommand {
        @Option(names = "--preview-hash", description = "hash from svc operation preview (required for dangerous operations)")
        String previewHash;
        @Option(names = "--work-ref", description = "external change-ticket reference")
        String workRef;

        @Override
        protected void execute(Session s) {
            Map<String, Object> body = body(connectorId, opId, target, parsed);
            if (previewHash != null) {
                body.put("preview_hash", previewHash);
            }
            if (workRef != null) {
                body.put("work_ref", workRef);
            }
            JsonNode env = s.client().call("POST", ApiPaths.OPERATIONS_CALL, body).json();
            Envelopes.finish(ctx, env, opId, options.json(), result -> ctx.out().println(result.toPrettyString()));
        }
    }

    /** preview */
    @Command(name = "preview", description = "Show the request an operation would send, and its preview hash.")
    static final class Preview extends OperationRequestCommand {
        @Override
        protected void execute(Session s) {
            JsonNode env = s.client().call("POST", ApiPaths.OPERATIONS_PREVIEW, body(connectorId, opId, target, parsed)).json();
            print(env, () -> {
                JsonNode r = env.path("result");
                switch (env.path("status").asText()) {
                    case "ok" -> {
                        ctx.out().println(r.path("method").asText() + " " + r.path("path").asText()
                                + (r.path("query").isEmpty() ? "" : "  query " + r.path("query")));
                        if (!r.path("body").isNull()) {
                            ctx.out().println("body " + r.path("body").toPrettyString());
                        }
                        ctx.out().println("preview_hash " + r.path("preview_hash").asText());
                    }
                    case "unavailable" -> ctx.out().println("unavailable: " + env.path("error").asText());
                    default -> ctx.out().println(env.path("status").asText() + ": " + env.path("error").asText());
                }
            });
            if (env.path("status").asText().equals("error")) {
                throw CliException.failed(opId + ": " + env.path("error").asText());
            }
        }
    }

    /** result-query */
    @Command(name = "result-query", description = "Page through or query a stored (reduced) result.")
    static final class ResultQueryCmd extends BackplaneCommand {
        private static final Pattern WHERE = Pattern.compile(
                "\\s*([^\\s]+)\\s+(IS NOT NULL|IS NULL|IN|<=|>=|!=|=|<|>)\\s*(.*)", Pattern.CASE_INSENSITIVE);
        private static final Pattern AGG = Pattern.compile("\\s*(\\w+)\\s*(?:\\(\\s*([^)\\s]*)\\s*\\))?(?:\\s+as\\s+(\\w+))?\\s*",
                Pattern.CASE_INSENSITIVE);

        @Parameters(index = "0", paramLabel = "<handle_id>")
        String handle;
        @Option(names = "--where", description = "'field op value' (ops = != < <= > >= IN, IS NULL, IS NOT NULL); repeatable")
        List<String> where = new ArrayList<>();
        @Option(names = "--select", split = ",", description = "fields to keep")
        List<String> select = new ArrayList<>();
        @Option(names = "--group-by", split = ",", description = "up to 4 fields")
        List<String> groupBy = new ArrayList<>();
        @Option(names = "--aggregate", description = "count, sum(field), avg(field), min(field), max(field) [as name]; repeatable")
        List<String> aggregates = new ArrayList<>();
        @Option(names = "--order-by", split = ",", description = "'field [asc|desc]', up to 4")
        List<String> orderBy = new ArrayList<>();
        @Option(names = "--query-limit", description = "rows of a query (clamped to 500)")
        Integer queryLimit;
        @Option(names = "--limit", description = "page size (default 50, max 500)")
        Integer limit;
        @Option(names = "--offset", description = "rows to skip")
        Integer offset;

        private Map<String, Object> body;

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
            body = new LinkedHashMap<>();
            body.put("handle_id", handle);
            if (offset != null) {
                body.put("offset", offset);
            }
            if (limit != null) {
                body.put("limit", limit);
            }
            Map<String, Object> q = new LinkedHashMap<>();
            List<Map<String, Object>> preds = new ArrayList<>();
            for (String w : where) {
                Matcher m = WHERE.matcher(w);
                if (!m.matches()) {
                    throw CliException.usage("--where '" + w + "' is not 'field op value'");
                }
                Map<String, Object> p = new LinkedHashMap<>();
                p.put("field", m.group(1));
                p.put("op", m.group(2).toUpperCase(java.util.Locale.ROOT));
                if (!m.group(2).toUpperCase(java.util.Locale.ROOT).startsWith("IS")) {
                    p.put("value", value(m.group(3).trim()));
                }
                preds.add(p);
            }
            if (!preds.isEmpty()) {
                q.put("where", preds);
            }
            if (!select.isEmpty()) {
                q.put("select", select);
            }
            if (!groupBy.isEmpty()) {
                q.put("group_by", groupBy);
            }
            List<Map<String, Object>> aggs = new ArrayList<>();
            for (String a : aggregates) {
                Matcher m = AGG.matcher(a);
                if (!m.matches()) {
                    throw CliException.usage("--aggregate '" + a + "' is not fn(field) [as name]");
                }
                Map<String, Object> agg = new LinkedHashMap<>();
                agg.put("fn", m.group(1).toUpperCase(java.util.Locale.ROOT));
                if (m.group(2) != null && !m.group(2).isEmpty()) {
                    agg.put("field", m.group(2));
                }
                if (m.group(3) != null) {
                    agg.put("as", m.group(3));
                }
                aggs.add(agg);
            }
            if (!aggs.isEmpty()) {
                q.put("aggregates", aggs);
            }
            List<Map<String, Object>> order = new ArrayList<>();
            for (String o : orderBy) {
                String[] parts = o.trim().split("\\s+");
                order.add(parts.length > 1 ? Map.of("field", parts[0], "dir", parts[1]) : Map.of("field", parts[0]));
            }
            if (!order.isEmpty()) {
                q.put("order_by", order);
            }
            if (queryLimit != null) {
                q.put("limit", Math.min(500, queryLimit));
            }
            if (!q.isEmpty()) {
                body.put("query", q);
            }
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
            JsonNode r = s.client().call("POST", ApiPaths.OPERATIONS_RESULT_QUERY, body).json();
            print(r, () -> {
                r.path("rows").forEach(row -> ctx.out().println(row.toString()));
                ctx.out().println("(" + r.path("returned_rows").asInt() + " row(s) from offset " + r.path("offset").asInt()
                        + " of " + r.path("total_rows").asLong() + "; " + r.path("stored_rows").asInt() + " stored"
                        + (r.path("truncated").asBoolean() ? "; more: --offset " + (r.path("offset").asInt()
                        + r.path("returned_rows").asInt()) : "") + ")");
            });
        }
    }
}
