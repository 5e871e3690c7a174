package dev.backplane.plugins.prometheus;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.plugin.api.TargetSpec;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * What {@code svc targets discover prometheus} finds through a Prometheus: its active scrape targets
 * ({@code GET /api/v1/targets?state=active}), one candidate per target, at the address Prometheus scrapes
 * (host and port of the scrape URL; {@code extras.scheme: http} when it scrapes plain HTTP). The product is a
 * guess from the job name or the metrics path, by the small table {@link #GUESSES} (first match wins), and
 * is given only where the scraped port is the product's API port, so the candidate is a target a connector
 * can serve:
 *
 * <table>
 * <caption>guesses</caption>
 * <tr><th>job name or metrics path</th><th>product</th></tr>
 * <tr><td>job {@code node}, {@code node-exporter}, {@code node_exporter}, {@code prometheus-node-exporter}</td>
 *     <td>none: a host's metrics exporter, not an API a connector serves</td></tr>
 * <tr><td>job containing {@code alertmanager}</td><td>{@code alertmanager}</td></tr>
 * <tr><td>job {@code apiserver}, {@code kube-apiserver}, {@code kubernetes-apiservers}</td><td>{@code k8s}</td></tr>
 * <tr><td>job {@code prometheus}, {@code prometheus-k8s}, {@code prometheus-server}</td><td>{@code prometheus}</td></tr>
 * <tr><td>job containing {@code loki}</td><td>{@code loki}</td></tr>
 * <tr><td>metrics path {@code /v1/sys/metrics}</td><td>{@code vault}</td></tr>
 * </table>
 *
 * <p>Any other job is unknown: the candidate is listed without a product, the job named in its notes, and an
 * operator who knows better sets the product. The kernel checks every guess against the products this deploy
 * serves, recognises the Prometheus itself (the seed, scraping itself) by its address, and lists a target
 * scraped by two jobs once.
 */
final class ScrapeTargets {

    /** One row of the guess table. */
    private record Guess(Pattern job, Pattern path, Optional<String> product, String why) {
        boolean matches(String jobName, String metricsPath) {
            return (job != null && job.matcher(jobName).matches()) || (path != null && path.matcher(metricsPath).matches());
        }
    }

    static final List<Guess> GUESSES = List.of(
            new Guess(Pattern.compile("node|(prometheus[-_])?node[-_]?exporter"), null, Optional.empty(),
                    "a host's metrics exporter (node_exporter), not an API a connector serves"),
            new Guess(Pattern.compile(".*alertmanager.*"), null, Optional.of("alertmanager"), "job name"),
            new Guess(Pattern.compile("apiserver|kube-apiserver|kubernetes-apiservers"), null, Optional.of("k8s"),
                    "job name"),
            new Guess(Pattern.compile("prometheus(-k8s|-server)?"), null, Optional.of("prometheus"), "job name"),
            new Guess(Pattern.compile(".*loki.*"), null, Optional.of("loki"), "job name"),
            new Guess(null, Pattern.compile("/v1/sys/metrics"), Optional.of("vault"), "metrics path"));

    private ScrapeTargets() {
    }

    /** The candidates in a targets answer's {@code data}. */
    static List<Map<String, Object>> of(JsonNode data, TargetSpec seed) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (JsonNode t : data.path("activeTargets")) {
            String job = t.path("labels").path("job").asText(t.path("scrapePool").asText(""));
            URI url;
            try {
                url = URI.create(t.path("scrapeUrl").asText(""));
            } catch (IllegalArgumentException e) {
                continue; // nothing to dial
            }
            if (url.getHost() == null) {
                continue;
            }
            String scheme = url.getScheme() == null ? "http" : url.getScheme();
            String host = url.getHost().replaceAll("^\\[|]$", "");
            int port = url.getPort() > 0 ? url.getPort() : scheme.equals("https") ? 443 : 80;
            String path = url.getPath() == null || url.getPath().isEmpty() ? "/metrics" : url.getPath();
            Optional<Guess> guess = GUESSES.stream().filter(g -> g.matches(job, path)).findFirst();
            Map<String, Object> c = new LinkedHashMap<>();
            c.put("name", job + "-" + host);
            guess.flatMap(Guess::product).ifPresent(p -> c.put("product", p));
            c.put("host", host);
            c.put("port", port);
            c.put("notes", "scrape target of " + seed.name() + ": job '" + job + "', " + scheme + "://" + host + ":" + port
                    + path + ", health " + t.path("health").asText("unknown") + "; product "
                    + guess.map(g -> g.product().map(p -> "guessed from the " + g.why()).orElse("none: " + g.why()))
                            .orElse("unknown (no guess for this job)"));
            if (scheme.equals("http")) {
                c.put("extras", Map.of("scheme", "http"));
            }
            out.add(c);
        }
        return out;
    }
}
