package dev.backplane.plugins.loki;

import static dev.backplane.plugins.http.Catalogs.object;
import static dev.backplane.plugins.http.Catalogs.read;

import dev.backplane.plugin.api.Catalog;
import dev.backplane.plugin.api.OperationGroup;
import dev.backplane.plugin.api.ResultKind;
import java.util.List;

/** The log-analytics family: LogQL over a range or at an instant, labels, label values and series. Reads only. */
final class LokiCatalog {

    static final int LIMIT_DEFAULT = 100;
    static final int LIMIT_MAX = 5000;

    /** A point in time: RFC 3339 or Unix seconds/nanoseconds, as Loki takes it. */
    private static final String TIME = """
            {"type": "string", "pattern": "^([0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+(Z|[+-][0-9]{2}:[0-9]{2})|[0-9]{1,19})$",
             "description": "RFC 3339 or Unix seconds (or nanoseconds)"}""";
    private static final String LOGQL = """
            {"type": "string", "minLength": 1, "maxLength": 10000, "description": "the LogQL query, e.g. {app=\\"web\\"} |= \\"error\\""}""";
    private static final String RANGE = "\"start\": " + TIME + ", \"end\": " + TIME + ", \"since\": {\"type\": \"string\", "
            + "\"pattern\": \"^[0-9]{1,6}[smhd]$\", \"description\": \"instead of start: this long before end (default 1h)\"}";

    private LokiCatalog() {
    }

    static final Catalog CATALOG = new Catalog(List.of(
            new OperationGroup("server", "Server", "Which Loki this is"),
            new OperationGroup("logs", "Logs", "LogQL: log lines over a time range, metric queries, and the labels "
                    + "and streams there are to query")),
            List.of(
                    read("loki.about", "server", "Loki's version and build", object("", ""),
                            "/loki/api/v1/status/buildinfo", ResultKind.OBJECT),
                    read("loki.query.range", "logs", "Log lines (or metric samples) matching a LogQL query over a time "
                            + "range: one row per line with its time, labels and text (limit default " + LIMIT_DEFAULT
                            + ", at most " + LIMIT_MAX + ")", object("\"query\"", "\"query\": " + LOGQL + ", " + RANGE
                            + ", \"limit\": {\"type\": \"integer\", \"minimum\": 1, \"maximum\": " + LIMIT_MAX + "}, "
                            + "\"direction\": {\"type\": \"string\", \"enum\": [\"backward\", \"forward\"], \"description\": "
                            + "\"backward (newest first, the default) or forward\"}, \"step\": {\"type\": \"string\", "
                            + "\"pattern\": \"^[0-9]{1,6}(ms|s|m|h)$\", \"description\": \"resolution of a metric query\"}"),
                            "/loki/api/v1/query_range", ResultKind.SET),
                    read("loki.query.instant", "logs", "A LogQL metric query at one instant, e.g. "
                            + "sum by (app) (count_over_time({env=\"prod\"} |= \"error\" [5m]))", object("\"query\"",
                            "\"query\": " + LOGQL + ", \"time\": " + TIME + ", \"limit\": {\"type\": \"integer\", "
                                    + "\"minimum\": 1, \"maximum\": " + LIMIT_MAX + "}"), "/loki/api/v1/query", ResultKind.SET),
                    read("loki.label.list", "logs", "Label names seen in a time range", object("", RANGE),
                            "/loki/api/v1/labels", ResultKind.SET),
                    read("loki.label.values", "logs", "The values a label takes in a time range, e.g. every app",
                            object("\"name\"", "\"name\": {\"type\": \"string\", \"pattern\": "
                                    + "\"^[a-zA-Z_][a-zA-Z0-9_]{0,199}$\"}, " + RANGE), "/loki/api/v1/label/{name}/values",
                            ResultKind.SET),
                    read("loki.series.list", "logs", "The streams (label sets) matching selectors in a time range",
                            object("\"match\"", "\"match\": {\"type\": \"array\", \"minItems\": 1, \"maxItems\": 20, "
                                    + "\"items\": {\"type\": \"string\", \"minLength\": 1, \"maxLength\": 2000}, "
                                    + "\"description\": \"stream selectors, e.g. {app=\\\"web\\\"}\"}, " + RANGE),
                            "/loki/api/v1/series", ResultKind.SET)));
}
