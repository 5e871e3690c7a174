package dev.backplane.plugins.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import dev.backplane.kernel.testing.BeforeKernel;
import dev.backplane.kernel.testing.KernelSetup;
import dev.backplane.kernel.testing.PerTestTenant;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The scheduled topology refresh (db-scheduler, every minute, here with a one-minute interval): a
 * Kubernetes target nobody refreshes by hand gets its auto edges, read through the pipeline as the
 * discovery principal. Waits for the job by polling with a deadline (the job's first round after the
 * target exists is at most a minute away).
 */
class K8sScheduledRefreshIT extends PerTestTenant {

    private static MockCluster cluster;

    @BeforeKernel
    static void start(KernelSetup setup) throws Exception {
        cluster = setup.closeAfter(new MockCluster().seed(0));
        setup.pluginJar("k8s.plugin.jar", "k8s-1.x.jar");
        setup.setting("SVC_TOPOLOGY_REFRESH_INTERVAL_MINUTES", "1");
    }

    @Test
    void aDiscoverableTargetIsRefreshedWithoutAnyoneAsking() throws Exception {
        kernel.registerTarget(admin, Map.of("name", "sched", "product", "k8s", "host", "localhost", "port", cluster.port()));
        kernel.stageSecret(admin, "sched", Map.of("kubeconfig", cluster.kubeconfig(MockCluster.TOKEN)));
        kernel.enableConnector(admin, "k8s-1.x");
        long deadline = System.nanoTime() + Duration.ofSeconds(150).toNanos();
        int edges = 0;
        while (edges == 0 && System.nanoTime() < deadline) {
            Thread.sleep(1000);
            edges = kernel.get("/api/v1/topology/edges?source=auto", admin).json().path("edges").size();
        }
        assertThat(edges).as("auto edges written by the scheduled refresh").isGreaterThan(0);
        assertThat(kernel.get("/api/v1/topology/edges?source=auto&from=" + "sched/shop/web-0", admin).json()
                .path("edges").findValuesAsText("to")).contains("sched/node-1", "sched/shop");
        assertThat(kernel.jdbc().queryOne("SELECT count(*) FROM audit_rows WHERE tenant_id = ? AND principal = ? "
                + "AND op_id = 'k8s.pod.list'", rs -> rs.getLong(1), tenant, "svc-system:topology-discovery")
                .orElseThrow()).isPositive();
    }
}
