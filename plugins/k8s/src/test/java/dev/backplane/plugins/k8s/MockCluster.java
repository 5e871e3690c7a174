package dev.backplane.plugins.k8s;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.IngressBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.VersionInfo;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.Queue;
import java.util.UUID;

/**
 * The fabric8 Kubernetes mock server in CRUD mode over real TLS on loopback, behind a bearer-token
 * check (the mock itself accepts anyone), seeded with a small cluster. Expectations (pod logs, which
 * CRUD mode does not serve) are layered on top through the mixed dispatcher.
 */
final class MockCluster implements AutoCloseable {

    static final String TOKEN = "k8s-token-" + UUID.randomUUID();

    private final KubernetesMockServer server;
    private final MockWebServer web;

    /** How many requests reached the mock API server. */
    int requestCount() {
        return web.getRequestCount();
    }

    MockCluster() {
        this.web = new MockWebServer();
        Map<ServerRequest, Queue<ServerResponse>> responses = new HashMap<>();
        Dispatcher inner = new KubernetesMixedDispatcher(responses);
        Dispatcher checked = new Dispatcher() {
            @Override
            public MockResponse dispatch(RecordedRequest request) {
                if (!("Bearer " + TOKEN).equals(request.getHeader("Authorization"))) {
                    return new MockResponse().setResponseCode(401).setBody("{\"kind\":\"Status\",\"apiVersion\":\"v1\","
                            + "\"status\":\"Failure\",\"message\":\"Unauthorized\",\"reason\":\"Unauthorized\",\"code\":401}");
                }
                return inner.dispatch(request);
            }
        };
        this.server = new KubernetesMockServer(new Context(), web, responses, checked, true);
        server.setVersionInfo(new VersionInfo.Builder().withMajor("1").withMinor("31").withGitVersion("v1.31.4+k3s1")
                .withPlatform("linux/amd64").build());
        server.init(InetAddress.getLoopbackAddress(), 0);
    }

    int port() {
        return web.getPort();
    }

    KubernetesMockServer server() {
        return server;
    }

    /** The server's self-signed certificate (it names localhost), PEM. */
    String certificatePem() {
        try {
            return Files.readString(Path.of(web.getSelfSignedCertificate().certificatePath()));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** A kubeconfig for this cluster: its CA and a bearer token; the server URL is deliberately elsewhere. */
    String kubeconfig(String token) {
        String ca = Base64.getEncoder().encodeToString(certificatePem().getBytes(StandardCharsets.US_ASCII));
        return """
                apiVersion: v1
                kind: Config
                current-context: test
                clusters:
                - name: mock
                  cluster:
                    server: https://kubernetes.invalid:1
                    certificate-authority-data: %s
                users:
                - name: tester
                  user:
                    token: %s
                contexts:
                - name: test
                  context:
                    cluster: mock
                    user: tester
                    namespace: default
                """.formatted(ca, token);
    }

    /** A small cluster: 2 namespaces, 2 nodes, pods, a deployment, a service, an ingress, events. */
    MockCluster seed(int extraPods) {
        KubernetesClient c = admin();
        for (String ns : new String[] {"default", "shop"}) {
            c.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata()
                    .withNewStatus().withPhase("Active").endStatus().build()).create();
        }
        for (int i = 1; i <= 2; i++) {
            c.nodes().resource(new NodeBuilder().withNewMetadata().withName("node-" + i)
                    .addToLabels("node-role.kubernetes.io/" + (i == 1 ? "control-plane" : "worker"), "").endMetadata()
                    .withNewStatus().addNewCondition().withType("Ready").withStatus("True").endCondition()
                    .addNewAddress().withType("InternalIP").withAddress("10.0.0." + i).endAddress()
                    .withNewNodeInfo().withKubeletVersion("v1.31.4+k3s1").endNodeInfo().endStatus().build()).create();
        }
        for (int i = 0; i < 3 + extraPods; i++) {
            String ns = i % 2 == 0 ? "shop" : "default";
            c.pods().inNamespace(ns).resource(new PodBuilder().withNewMetadata().withName("web-" + i).withNamespace(ns)
                    .addToLabels("app", i < 3 ? "web" : "batch").endMetadata()
                    .withNewSpec().withNodeName("node-" + (1 + i % 2)).addNewContainer().withName("app").withImage("nginx")
                    .endContainer().endSpec()
                    .withNewStatus().withPhase(i == 1 ? "Pending" : "Running").withPodIP("10.1.0." + (i % 250))
                    .addNewContainerStatus().withName("app").withReady(i != 1).withRestartCount(i % 3).endContainerStatus()
                    .endStatus().build()).create();
        }
        c.apps().deployments().inNamespace("shop").resource(new DeploymentBuilder().withNewMetadata().withName("web")
                .withNamespace("shop").endMetadata().withNewSpec().withReplicas(2).withNewSelector()
                .addToMatchLabels("app", "web").endSelector().withNewTemplate().withNewMetadata().addToLabels("app", "web")
                .endMetadata().withNewSpec().addNewContainer().withName("app").withImage("nginx").endContainer().endSpec()
                .endTemplate().endSpec().withNewStatus().withReadyReplicas(2).withAvailableReplicas(2)
                .withUpdatedReplicas(2).endStatus().build()).create();
        c.services().inNamespace("shop").resource(new ServiceBuilder().withNewMetadata().withName("web")
                .withNamespace("shop").endMetadata().withNewSpec().withType("ClusterIP").addToSelector("app", "web")
                .addNewPort().withPort(80).endPort().endSpec().build()).create();
        c.network().v1().ingresses().inNamespace("shop").resource(new IngressBuilder().withNewMetadata().withName("web")
                .withNamespace("shop").endMetadata().withNewSpec().withIngressClassName("traefik").addNewRule()
                .withHost("shop.example.com").endRule().endSpec().build()).create();
        c.v1().events().inNamespace("shop").resource(new EventBuilder().withNewMetadata().withName("web-0.1")
                .withNamespace("shop").endMetadata().withType("Warning").withReason("BackOff").withMessage("Back-off "
                        + "restarting failed container").withCount(3).withNewInvolvedObject().withKind("Pod").withName("web-0")
                .endInvolvedObject().build()).create();
        server.expect().get().withPath("/api/v1/namespaces/default/pods?limit=1")
                .andReturn(200, new io.fabric8.kubernetes.api.model.PodListBuilder().withNewMetadata()
                        .withContinue("page-2-token").endMetadata().addNewItem().withNewMetadata().withName("web-1")
                        .withNamespace("default").endMetadata().endItem().build()).always();
        server.expect().get().withPath("/api/v1/namespaces/shop/pods/web-0/log?pretty=false&tailLines=100")
                .andReturn(200, "line one\nline two\n").always();
        server.expect().get().withPath("/api/v1/namespaces/shop/pods/web-0/log?pretty=false&tailLines=1")
                .andReturn(200, "line two\n").always();
        return this;
    }

    /** A client that passes the token check, for seeding and for checking what writes did. */
    KubernetesClient admin() {
        KubernetesClient mock = server.createClient();
        return new io.fabric8.kubernetes.client.KubernetesClientBuilder().withConfig(
                new io.fabric8.kubernetes.client.ConfigBuilder(mock.getConfiguration()).withOauthToken(TOKEN).build())
                .build();
    }

    @Override
    public void close() {
        server.destroy();
    }
}
