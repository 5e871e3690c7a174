package dev.backplane.kernel.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.backplane.kernel.egress.EgressProxy;
import dev.backplane.kernel.egress.GuardedSocketFactory;
import dev.backplane.kernel.egress.SsrfGuard;
import dev.backplane.kernel.egress.TargetTls;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Security review property 11: the HTTP client the kernel lends every plugin session (not a client a
 * test builds) goes through the SSRF-checking egress proxy and never follows a redirect — integration
 * tests allowlist loopback, so they would pass even if it did not.
 */
class KernelLentClientTest {

    @Test
    void thePluginsClientIsHeldToTheGuardAndFollowsNoRedirect() throws Exception {
        AtomicInteger internalHits = new AtomicInteger();
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/internal", x -> {
            internalHits.incrementAndGet();
            byte[] b = "internal".getBytes(StandardCharsets.UTF_8);
            x.sendResponseHeaders(200, b.length);
            x.getResponseBody().write(b);
            x.close();
        });
        server.createContext("/redirect", x -> {
            x.getResponseHeaders().add("Location", "/internal");
            x.sendResponseHeaders(302, -1);
            x.close();
        });
        server.start();
        int port = server.getAddress().getPort();
        TargetTls tls = TargetTls.of("127.0.0.1", true, Optional.empty(), Optional.empty());
        try {
            // the deploy's guard allows nothing private: the lent client cannot reach loopback
            try (EgressProxy strict = new EgressProxy(new GuardedSocketFactory(new SsrfGuard(List.of(),
                    InetAddress::getAllByName), 2000))) {
                HttpClient client = KernelConnectorContext.httpClient(tls, strict, Duration.ofSeconds(5));
                HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                        + "/internal")).build(), HttpResponse.BodyHandlers.ofString());
                assertThat(r.statusCode()).isEqualTo(403);
                assertThat(r.headers().firstValue("X-Svc-Egress")).hasValue("refused");
                assertThat(internalHits).hasValue(0);
            }
            // where loopback is allowed, a redirect is handed back to the plugin, not followed
            try (EgressProxy allowed = new EgressProxy(new GuardedSocketFactory(new SsrfGuard(List.of("127.0.0.0/8"),
                    InetAddress::getAllByName), 2000))) {
                HttpClient client = KernelConnectorContext.httpClient(tls, allowed, Duration.ofSeconds(5));
                HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                        + "/redirect")).build(), HttpResponse.BodyHandlers.ofString());
                assertThat(r.statusCode()).isEqualTo(302);
                assertThat(internalHits).as("the redirect was not followed").hasValue(0);
                assertThat(client.followRedirects()).isEqualTo(HttpClient.Redirect.NEVER);
                assertThat(client.proxy()).isPresent();
            }
        } finally {
            server.stop(0);
        }
    }
}
