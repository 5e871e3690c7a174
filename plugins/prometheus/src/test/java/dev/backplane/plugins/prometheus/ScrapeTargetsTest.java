package dev.backplane.plugins.prometheus;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.backplane.plugin.api.TargetSpec;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The guess table on the job names Prometheus setups use, and the address each candidate dials. */
class ScrapeTargetsTest {

    private static final TargetSpec SEED = new TargetSpec("prom", "prometheus", "prom.example", 9090, Optional.empty(),
            true, Optional.empty(), Optional.empty(), Map.of());

    private static List<Map<String, Object>> of(String... jobAndUrl) throws Exception {
        StringBuilder json = new StringBuilder("{\"activeTargets\": [");
        for (int i = 0; i < jobAndUrl.length; i += 2) {
            json.append(i == 0 ? "" : ",").append("{\"labels\": {\"job\": \"").append(jobAndUrl[i])
                    .append("\"}, \"scrapeUrl\": \"").append(jobAndUrl[i + 1]).append("\", \"health\": \"up\"}");
        }
        JsonNode data = new ObjectMapper().readTree(json.append("]}").toString());
        return ScrapeTargets.of(data, SEED);
    }

    @Test
    void theJobOrMetricsPathGuessesTheProduct() throws Exception {
        var c = of("prometheus", "http://10.0.0.1:9090/metrics",
                "prometheus-k8s", "https://10.0.0.2:9091/metrics",
                "alertmanager-main", "http://10.0.0.3:9093/metrics",
                "apiserver", "https://10.0.0.4:6443/metrics",
                "kubernetes-apiservers", "https://10.0.0.5:6443/metrics",
                "loki/loki-read", "http://10.0.0.6:3100/metrics",
                "vault", "https://10.0.0.7:8200/v1/sys/metrics?format=prometheus",
                "node", "http://10.0.0.8:9100/metrics",
                "prometheus-node-exporter", "http://10.0.0.9:9100/metrics",
                "node_exporter", "http://10.0.0.10:9100/metrics",
                "kube-state-metrics", "http://10.0.0.11:8080/metrics",
                "prometheus-operator", "http://10.0.0.12:8080/metrics");
        assertThat(c).extracting(m -> m.getOrDefault("product", "-")).containsExactly("prometheus", "prometheus",
                "alertmanager", "k8s", "k8s", "loki", "vault", "-", "-", "-", "-", "-");
        assertThat(c.get(7).get("notes").toString()).contains("none: a host's metrics exporter (node_exporter)");
        assertThat(c.get(10).get("notes").toString()).contains("unknown (no guess for this job)")
                .contains("job 'kube-state-metrics'");
    }

    @Test
    void theCandidateDialsWhatPrometheusScrapes() throws Exception {
        var c = of("alertmanager", "http://am.example/metrics", "alertmanager", "https://[fd00::5]/metrics",
                "alertmanager", "not a url", "alertmanager", "/relative");
        assertThat(c).hasSize(2);
        assertThat(c.get(0)).containsEntry("name", "alertmanager-am.example").containsEntry("host", "am.example")
                .containsEntry("port", 80).containsEntry("extras", Map.of("scheme", "http"));
        assertThat(c.get(1)).containsEntry("host", "fd00::5").containsEntry("port", 443).doesNotContainKey("extras");
        assertThat(c.get(1).get("notes").toString()).startsWith("scrape target of prom: job 'alertmanager'");
    }
}
