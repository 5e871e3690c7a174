package dev.backplane.plugins.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.testing.BeforeKernel;
import dev.backplane.kernel.testing.KernelSetup;
import dev.backplane.kernel.testing.PerTestTenant;
import dev.backplane.kernel.testing.TestKernel;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Topology discovery against the mock cluster through the built plugin jar: {@code refresh} reads the
 * cluster with the connector's read operations through the whole pipeline (gate, credentials, reduction
 * with result handles, audit rows as the discovery principal) and writes auto edges; a curated edge
 * contradicting a discovered one is a conflict on both; a pod that disappears makes its edges stale (not
 * deleted), which clears the conflict; it coming back revives them.
 */
class K8sTopologyIT extends PerTestTenant {

    private static MockCluster cluster;
    private static MockCluster big;

    @BeforeKernel
    static void start(KernelSetup setup) throws Exception {
        // 63 pods: more than the reduction threshold, so discovery pages the stored result by its handle
        cluster = setup.closeAfter(new MockCluster().seed(60));
        // 201 pods: one more than discovery reads the volume mounts of (K8sDiscovery.MAX_POD_INFOS)
        big = setup.closeAfter(new MockCluster().seed(198));
        // no scheduled refresh here: the counts below are of this test's own refreshes (K8sScheduledRefreshIT has it)
        setup.setting("SVC_TOPOLOGY_REFRESH_INTERVAL_MINUTES", "0");
        setup.pluginJar("k8s.plugin.jar", "k8s-1.x.jar");
        cluster.admin().pods().inNamespace("shop").resource(new PodBuilder().withNewMetadata().withName("pg-0")
                .withNamespace("shop").endMetadata().withNewSpec().withNodeName("node-2").addNewContainer().withName("pg")
                .withImage("postgres").endContainer().addNewVolume().withName("data").withNewPersistentVolumeClaim()
                .withClaimName("pg-data").endPersistentVolumeClaim().endVolume().endSpec().build()).create();
    }

    private JsonNode ok(TestKernel.Response r) {
        assertThat(r.status()).as(r.body()).isBetween(200, 201);
        assertThat(r.body()).doesNotContain(MockCluster.TOKEN);
        return r.json();
    }

    private JsonNode refresh() {
        return ok(kernel.post("/api/v1/topology/refresh", admin, Map.of("target", "c1")));
    }

    private static List<String> edges(JsonNode list) {
        List<String> out = new ArrayList<>();
        list.path("edges").forEach(e -> out.add(e.path("from").asText() + " " + e.path("kind").asText() + " "
                + e.path("to").asText() + (e.path("stale").asBoolean() ? " (stale)" : "")
                + (e.path("conflict").asBoolean() ? " (conflict)" : "")));
        return out;
    }

    private JsonNode get(String path) {
        return ok(kernel.get(path, operator));
    }

    private static String q(String v) {
        return URLEncoder.encode(v, StandardCharsets.UTF_8);
    }

    @Test
    void aClusterBeyondACapIsRefusedNotReadInPart() {
        kernel.registerTarget(admin, Map.of("name", "big", "product", "k8s", "host", "localhost", "port", big.port()));
        kernel.stageSecret(admin, "big", Map.of("kubeconfig", big.kubeconfig(MockCluster.TOKEN)));
        kernel.enableConnector(admin, "k8s-1.x");
        var refused = kernel.post("/api/v1/topology/refresh", admin, Map.of("target", "big"));
        assertThat(refused.status()).as(refused.body()).isEqualTo(409);
        assertThat(refused.json().path("error").asText()).isEqualTo("refresh_failed");
        assertThat(refused.json().path("extras").path("cap").asText()).isEqualTo("MAX_POD_INFOS");
        assertThat(refused.json().path("extras").path("max").asInt()).isEqualTo(200);
        assertThat(kernel.jdbc().queryOne("SELECT count(*) FROM topology_edges WHERE tenant_id = ?", rs -> rs.getLong(1),
                tenant).orElseThrow()).as("nothing written, nothing staled").isZero();
    }

    @Test
    void refreshDiscoversTheClusterMarksStaleAndFlagsConflicts() {
        kernel.registerTarget(admin, Map.of("name", "c1", "aliases", List.of("shop-cluster"), "product", "k8s", "host",
                "localhost", "port", cluster.port()));
        kernel.stageSecret(admin, "c1", Map.of("kubeconfig", cluster.kubeconfig(MockCluster.TOKEN)));

        // default-deny: before a tenant_admin enables the reads, discovery is refused by the gate and says so
        var refused = kernel.post("/api/v1/topology/refresh", admin, Map.of("target", "c1"));
        assertThat(refused.status()).as(refused.body()).isEqualTo(409);
        assertThat(refused.json().path("error").asText()).isEqualTo("refresh_failed");
        assertThat(refused.json().path("extras").path("error_code").asText()).isEqualTo("operation_not_enabled");
        assertThat(kernel.post("/api/v1/topology/refresh", operator, Map.of("target", "c1")).status()).isEqualTo(403);

        kernel.enableConnector(admin, "k8s-1.x");
        JsonNode first = refresh();
        assertThat(first.path("result").path("created").asInt()).as(first.toString()).isGreaterThan(130);
        List<String> auto = edges(get("/api/v1/topology/edges?source=auto&limit=1000"));
        assertThat(auto).contains("c1/shop/web-0 runs-on c1/node-1", "c1/shop/web-0 belongs-to c1/shop",
                "c1/default/web-1 runs-on c1/node-2", "c1/shop/web-62 belongs-to c1/shop", "c1/default/web-61 runs-on c1/node-2",
                "c1/shop belongs-to c1", "c1/node-2 belongs-to c1", "c1/shop/web belongs-to c1/shop",
                "c1/shop/pg-0 mounts c1/shop/pg-data");
        assertThat(auto).noneMatch(e -> e.contains("stale") || e.contains("conflict"));
        assertThat(get("/api/v1/topology/path?from=" + q("c1/shop/pg-0") + "&to=shop-cluster").path("hops")).hasSize(2);
        assertThat(get("/api/v1/topology/dependents?node=shop-cluster&depth=1&node_kind=node").path("nodes")
                .findValuesAsText("name")).containsExactlyInAnyOrder("c1/node-1", "c1/node-2");
        assertThat(refresh().path("result").path("unchanged").asInt()).as("a second refresh changes nothing")
                .isEqualTo(first.path("result").path("created").asInt());

        // every read went through the pipeline as the discovery principal
        long audited = kernel.jdbc().queryOne("SELECT count(*) FROM audit_rows WHERE tenant_id = ? AND principal = ? "
                + "AND op_id = 'k8s.pod.list' AND result_status = 'ok'", rs -> rs.getLong(1), tenant,
                "svc-system:topology-discovery").orElseThrow();
        assertThat(audited).isEqualTo(2);
        assertThat(kernel.jdbc().queryOne("SELECT count(*) FROM audit_rows WHERE tenant_id = ? AND extras::text LIKE ?",
                rs -> rs.getLong(1), tenant, "%" + MockCluster.TOKEN + "%").orElseThrow()).isZero();

        // a curated edge contradicting the discovered one: both flagged, neither overwritten
        JsonNode curated = ok(kernel.post("/api/v1/topology/edges", admin, Map.of("from", "c1/shop/web-0", "kind",
                "runs-on", "to", "c1/node-2", "note", "moved in the change window")));
        assertThat(curated.path("edge").path("conflict").asBoolean()).isTrue();
        assertThat(edges(get("/api/v1/topology/edges?conflicts=true"))).containsExactlyInAnyOrder(
                "c1/shop/web-0 runs-on c1/node-1 (conflict)", "c1/shop/web-0 runs-on c1/node-2 (conflict)");
        String autoId = get("/api/v1/topology/edges?source=auto&from=" + q("c1/shop/web-0") + "&kind=runs-on")
                .path("edges").get(0).path("edge_id").asText();
        var notMine = kernel.post("/api/v1/topology/edges/unannotate", admin, Map.of("edge_id", autoId));
        assertThat(notMine.status()).as(notMine.body()).isEqualTo(422);
        assertThat(notMine.json().path("error").asText()).isEqualTo("invalid_edge");

        // the pod goes away: its discovered edges go stale (kept), which also settles the conflict
        cluster.admin().pods().inNamespace("shop").withName("web-0").delete();
        JsonNode second = refresh();
        assertThat(second.path("result").path("stale").asInt()).isEqualTo(2);
        assertThat(edges(get("/api/v1/topology/edges?from=" + q("c1/shop/web-0")))).containsExactlyInAnyOrder(
                "c1/shop/web-0 runs-on c1/node-1 (stale)", "c1/shop/web-0 belongs-to c1/shop (stale)",
                "c1/shop/web-0 runs-on c1/node-2");
        assertThat(get("/api/v1/topology/edges?conflicts=true").path("edges")).isEmpty();
        assertThat(get("/api/v1/topology/dependencies?node=" + q("c1/shop/web-0") + "&depth=1").path("nodes")
                .findValuesAsText("name")).containsExactly("c1/node-2");
        assertThat(get("/api/v1/topology/dependencies?node=" + q("c1/shop/web-0") + "&depth=1&include_stale=true")
                .path("nodes").findValuesAsText("name")).containsExactlyInAnyOrder("c1/node-1", "c1/node-2", "c1/shop");
        JsonNode timeline = get("/api/v1/topology/timeline?target=shop-cluster&limit=10");
        assertThat(timeline.path("changes").findValuesAsText("change")).contains("stale", "conflict-cleared");

        // it comes back: the same edges are seen again, and contradict the curated one again
        cluster.admin().pods().inNamespace("shop").resource(new PodBuilder().withNewMetadata().withName("web-0")
                .withNamespace("shop").endMetadata().withNewSpec().withNodeName("node-1").addNewContainer()
                .withName("app").withImage("nginx").endContainer().endSpec().build()).create();
        JsonNode third = refresh();
        assertThat(third.path("result").path("seen_again").asInt()).isEqualTo(2);
        assertThat(get("/api/v1/topology/edges?conflicts=true").path("edges")).hasSize(2);

        // the CLI's refresh
        var cli = kernel.cli(admin).run("topology", "refresh", "shop-cluster");
        assertThat(cli.exitCode()).as(cli.toString()).isZero();
        assertThat(cli.out()).contains("refreshed c1:").contains("unchanged");
    }
}
