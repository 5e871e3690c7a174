package dev.backplane.plugins.prometheus;

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
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One session against one Prometheus or Alertmanager. The target's product decides which API it
 * speaks; an operation of the other product is refused before anything is sent.
 */
final class PrometheusSession implements Connector {

    private final Clock clock;
    private final TargetSpec target;
    private final VendorHttp http;

    PrometheusSession(ConnectorContext ctx, TargetSpec target, Credential credential) {
        this.clock = ctx.clock();
        this.target = target;
        this.http = new VendorHttp(ctx, target, credential, Map.of());
    }

    private boolean alertmanager() {
        return PrometheusConnectorFactory.ALERTMANAGER.equals(target.product());
    }

    @Override
    public Fingerprint probe() {
        if (alertmanager()) {
            JsonNode status = http.send(new VendorHttp.Request("GET", "/api/v2/status", Map.of(), Optional.empty()));
            return new Fingerprint(Optional.of("Prometheus"), Optional.of("alertmanager"),
                    version(status.path("versionInfo").path("version")), true, clock.instant(), "GET /api/v2/status");
        }
        JsonNode build = http.send(new VendorHttp.Request("GET", "/api/v1/status/buildinfo", Map.of(), Optional.empty()));
        return new Fingerprint(Optional.of("Prometheus"), Optional.of("prometheus"),
                version(build.path("data").path("version")), true, clock.instant(), "GET /api/v1/status/buildinfo");
    }

    /** {@code 2.42.0+ds} → {@code 2.42.0} (the resolver compares numbers; distro suffixes say nothing). */
    private static Optional<String> version(JsonNode v) {
        String text = v.asText("");
        String core = text.replaceFirst("^v", "").replaceFirst("[+~-].*$", "");
        return core.isEmpty() ? Optional.empty() : Optional.of(core);
    }

    @Override
    public OperationResult invoke(OperationRequest request) {
        String opId = request.opId();
        Params p = new Params(request.params());
        Optional<VendorHttp.Request> req;
        try {
            req = PrometheusRequests.of(opId, p, clock.instant());
        } catch (ConnectorException e) {
            return new OperationResult.Failure(e.code(), e.getMessage(), e.extras());
        }
        if (req.isEmpty()) {
            return new OperationResult.Failure(ErrorCode.UNKNOWN_OPERATION, "prometheus-2.x has no operation " + opId,
                    Map.of());
        }
        boolean forAlertmanager = PrometheusCatalog.ALERTMANAGER_OPS.contains(opId);
        if (!opId.equals("prometheus.about") && forAlertmanager != alertmanager()) { // about serves both
            return new OperationResult.Failure(ErrorCode.INVALID_PARAMS, opId + " needs " + (forAlertmanager
                    ? "an alertmanager" : "a prometheus") + " target; '" + target.name() + "' is a " + target.product()
                    + " target", Map.of("product", target.product()));
        }
        try {
            return switch (opId) {
                case "prometheus.about" -> about();
                case "prometheus.query.instant", "prometheus.query.range" -> {
                    JsonNode answer = http.send(req.get());
                    Map<String, Object> extras = new LinkedHashMap<>();
                    extras.put("result_type", answer.path("data").path("resultType").asText());
                    if (answer.path("warnings").size() > 0) {
                        List<String> warnings = new ArrayList<>();
                        answer.path("warnings").forEach(w -> warnings.add(w.asText()));
                        extras.put("warnings", warnings);
                    }
                    yield new OperationResult.Rows(PrometheusRows.query(answer.path("data")), extras);
                }
                case "prometheus.series.list" -> {
                    List<Map<String, Object>> rows = new ArrayList<>();
                    http.send(req.get()).path("data").forEach(s -> rows.add(MetricJson.series(s)));
                    yield new OperationResult.Rows(rows);
                }
                case "prometheus.label.list" -> new OperationResult.Rows(MetricJson.column(http.send(req.get())
                        .path("data"), "name"));
                case "prometheus.label.values" -> new OperationResult.Rows(MetricJson.column(http.send(req.get())
                        .path("data"), "value"));
                case "prometheus.target.list" -> new OperationResult.Rows(PrometheusRows.targets(http.send(req.get())
                        .path("data")).stream().filter(r -> p.string("job").map(j -> j.equals(r.get("job"))).orElse(true))
                        .filter(r -> p.string("health").map(h -> h.equals(r.get("health"))).orElse(true)).toList());
                case "prometheus.alert.list" -> new OperationResult.Rows(PrometheusRows.alerts(http.send(req.get())
                        .path("data")).stream().filter(r -> p.string("state").map(s -> s.equals(r.get("state")))
                        .orElse(true)).toList());
                case "prometheus.rule.list" -> new OperationResult.Rows(PrometheusRows.rules(http.send(req.get())
                        .path("data")));
                case "prometheus.am-alert.list" -> new OperationResult.Rows(PrometheusRows.amAlerts(http.send(req.get())));
                case "prometheus.silence.list" -> {
                    List<Map<String, Object>> rows = new ArrayList<>();
                    http.send(req.get()).forEach(s -> rows.add(PrometheusRows.silence(s)));
                    yield new OperationResult.Rows(rows.stream().filter(r -> p.string("state")
                            .map(s -> s.equals(r.get("state"))).orElse(true)).toList());
                }
                case "prometheus.silence.create" -> {
                    String id = http.send(req.get()).path("silenceID").asText();
                    yield new OperationResult.Document(readSilence(id));
                }
                case "prometheus.silence.expire" -> {
                    String id = p.string("id").orElseThrow();
                    http.send(req.get());
                    yield new OperationResult.Document(readSilence(id));
                }
                default -> throw new IllegalStateException("no handler for " + opId);
            };
        } catch (ConnectorException e) {
            if (e.code() == ErrorCode.INVALID_PARAMS || "404".equals(String.valueOf(e.extras().get("status")))) {
                return new OperationResult.Failure(e.code(), e.getMessage(), e.extras()); // the caller's to fix
            }
            throw e;
        }
    }

    /** The active scrape targets as candidate targets (a prometheus target's discovery, {@link ScrapeTargets}). */
    List<Map<String, Object>> scrapeTargets() {
        JsonNode answer = http.send(new VendorHttp.Request("GET", "/api/v1/targets", Map.of("state", List.of("active")),
                Optional.empty()));
        return ScrapeTargets.of(answer.path("data"), target);
    }

    /** The silence as Alertmanager now holds it: the write read back. */
    private Map<String, Object> readSilence(String id) {
        return PrometheusRows.silence(http.send(new VendorHttp.Request("GET", "/api/v2/silence/" + id, Map.of(),
                Optional.empty())));
    }

    private OperationResult about() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("product", target.product());
        if (alertmanager()) {
            JsonNode status = http.send(new VendorHttp.Request("GET", "/api/v2/status", Map.of(), Optional.empty()));
            JsonNode v = status.path("versionInfo");
            out.put("version", v.path("version").asText());
            out.put("revision", v.path("revision").asText());
            out.put("go_version", v.path("goVersion").asText());
            out.put("uptime", status.path("uptime").asText());
            out.put("cluster_status", status.path("cluster").path("status").asText());
            return new OperationResult.Document(out); // never the config: it holds receivers' secrets
        }
        JsonNode build = http.send(PrometheusRequests.of("prometheus.about", new Params(Map.of()), clock.instant())
                .orElseThrow()).path("data");
        out.put("version", build.path("version").asText());
        out.put("revision", build.path("revision").asText());
        out.put("branch", build.path("branch").asText());
        out.put("build_date", build.path("buildDate").asText());
        out.put("go_version", build.path("goVersion").asText());
        JsonNode runtime = http.send(new VendorHttp.Request("GET", "/api/v1/status/runtimeinfo", Map.of(),
                Optional.empty())).path("data");
        out.put("start_time", runtime.path("startTime").asText());
        out.put("storage_retention", runtime.path("storageRetention").asText());
        out.put("time_series_count", runtime.path("timeSeriesCount").asLong());
        return new OperationResult.Document(out);
    }

    @Override
    public Optional<HttpPreview> preview(OperationRequest request) {
        try {
            return PrometheusRequests.of(request.opId(), new Params(request.params()), clock.instant())
                    .map(r -> new HttpPreview(r.method(), r.path(), r.query(), r.body()));
        } catch (ConnectorException e) {
            return Optional.empty();
        }
    }

    @Override
    public void close() {
        // the HTTP client is the kernel's; nothing of ours stays open
    }
}
