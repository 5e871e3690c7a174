package dev.backplane.plugins.loki;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.plugin.api.Connector;
import dev.backplane.plugin.api.ConnectorContext;
import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.Credential;
import dev.backplane.plugin.api.ErrorCode;
import dev.backplane.plugin.api.Fingerprint;
import dev.backplane.plugin.api.HttpPreview;
import dev.backplane.plugin.api.OperationRequest;
import dev.backplane.plugin.api.OperationResult;
import dev.backplane.plugin.api.TargetSpec;
import dev.backplane.plugins.http.MetricJson;
import dev.backplane.plugins.http.Params;
import dev.backplane.plugins.http.VendorHttp;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** One session against one Loki: each operation is one GET, built by {@link #request} for invoke and preview alike. */
final class LokiSession implements Connector {

    private final ConnectorContext ctx;
    private final VendorHttp http;

    LokiSession(ConnectorContext ctx, TargetSpec target, Credential credential) {
        this.ctx = ctx;
        Object org = target.extras().get("org_id");
        // the Loki tenant in a multi-tenant deployment
        this.http = new VendorHttp(ctx, target, credential, org == null || org.toString().isBlank() ? Map.of()
                : Map.of("X-Scope-OrgID", org.toString()));
    }

    static Optional<VendorHttp.Request> request(String opId, Params p) {
        Map<String, List<String>> q = new LinkedHashMap<>();
        String path = switch (opId) {
            case "loki.about" -> "/loki/api/v1/status/buildinfo";
            case "loki.query.range" -> {
                q.put("query", List.of(p.string("query").orElseThrow()));
                range(p, q);
                q.put("limit", List.of(String.valueOf(p.integer("limit").orElse(LokiCatalog.LIMIT_DEFAULT))));
                p.string("direction").ifPresent(d -> q.put("direction", List.of(d)));
                p.string("step").ifPresent(s -> q.put("step", List.of(s)));
                yield "/loki/api/v1/query_range";
            }
            case "loki.query.instant" -> {
                q.put("query", List.of(p.string("query").orElseThrow()));
                p.string("time").ifPresent(t -> q.put("time", List.of(t)));
                q.put("limit", List.of(String.valueOf(p.integer("limit").orElse(LokiCatalog.LIMIT_DEFAULT))));
                yield "/loki/api/v1/query";
            }
            case "loki.label.list" -> {
                range(p, q);
                yield "/loki/api/v1/labels";
            }
            case "loki.label.values" -> {
                range(p, q);
                yield "/loki/api/v1/label/" + p.string("name").orElseThrow() + "/values";
            }
            case "loki.series.list" -> {
                q.put("match[]", p.strings("match").orElseThrow());
                range(p, q);
                yield "/loki/api/v1/series";
            }
            default -> null;
        };
        return Optional.ofNullable(path).map(x -> new VendorHttp.Request("GET", x, q, Optional.empty()));
    }

    private static void range(Params p, Map<String, List<String>> q) {
        p.string("start").ifPresent(s -> q.put("start", List.of(s)));
        p.string("end").ifPresent(e -> q.put("end", List.of(e)));
        p.string("since").ifPresent(s -> q.put("since", List.of(s)));
    }

    @Override
    public Fingerprint probe() {
        JsonNode build = http.send(request("loki.about", new Params(Map.of())).orElseThrow());
        String v = build.path("version").asText("").replaceFirst("^v", "").replaceFirst("[+~-].*$", "");
        return new Fingerprint(Optional.of("Grafana Labs"), Optional.of("loki"), v.isEmpty() ? Optional.empty()
                : Optional.of(v), true, ctx.clock().instant(), "GET /loki/api/v1/status/buildinfo");
    }

    @Override
    public OperationResult invoke(OperationRequest request) {
        Params p = new Params(request.params());
        Optional<VendorHttp.Request> req = request(request.opId(), p);
        if (req.isEmpty()) {
            return new OperationResult.Failure(ErrorCode.UNKNOWN_OPERATION, "loki-3.x has no operation "
                    + request.opId(), Map.of());
        }
        try {
            JsonNode answer = http.send(req.get());
            return switch (request.opId()) {
                case "loki.about" -> {
                    Map<String, Object> out = new LinkedHashMap<>();
                    out.put("version", answer.path("version").asText());
                    out.put("revision", answer.path("revision").asText());
                    out.put("branch", answer.path("branch").asText());
                    out.put("build_date", answer.path("buildDate").asText());
                    out.put("go_version", answer.path("goVersion").asText());
                    yield new OperationResult.Document(out);
                }
                case "loki.query.range", "loki.query.instant" -> {
                    boolean forward = p.string("direction").map("forward"::equals).orElse(false);
                    List<Map<String, Object>> rows = LokiRows.query(answer.path("data"), forward);
                    Map<String, Object> extras = new LinkedHashMap<>();
                    extras.put("result_type", answer.path("data").path("resultType").asText());
                    int limit = p.integer("limit").orElse(LokiCatalog.LIMIT_DEFAULT);
                    if (answer.path("data").path("resultType").asText().equals("streams") && rows.size() >= limit) {
                        extras.put("limit_reached", true); // more lines may match: narrow the range or raise the limit
                    }
                    yield new OperationResult.Rows(rows, extras);
                }
                case "loki.label.list" -> new OperationResult.Rows(MetricJson.column(answer.path("data"), "name"));
                case "loki.label.values" -> new OperationResult.Rows(MetricJson.column(answer.path("data"), "value"));
                default -> { // loki.series.list
                    List<Map<String, Object>> rows = new ArrayList<>();
                    answer.path("data").forEach(s -> rows.add(MetricJson.series(s)));
                    yield new OperationResult.Rows(rows);
                }
            };
        } catch (ConnectorException e) {
            if (e.code() == ErrorCode.INVALID_PARAMS) {
                return new OperationResult.Failure(e.code(), e.getMessage(), e.extras()); // the caller's to fix
            }
            throw e;
        }
    }

    @Override
    public Optional<HttpPreview> preview(OperationRequest request) {
        return request(request.opId(), new Params(request.params()))
                .map(r -> new HttpPreview(r.method(), r.path(), r.query(), r.body()));
    }

    @Override
    public void close() {
        // the HTTP client is the kernel's; nothing of ours stays open
    }
}
