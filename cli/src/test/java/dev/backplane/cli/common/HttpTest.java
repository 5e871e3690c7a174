package dev.backplane.cli.common;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpRequest;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@link Http} names the CLI in every request, whoever built the request. */
class HttpTest {

    private HttpServer server;
    private final List<String> agents = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() throws Exception {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            agents.add(String.join("|", exchange.getRequestHeaders().getOrDefault("User-Agent", List.of())));
            exchange.sendResponseHeaders(200, 2);
            exchange.getResponseBody().write("{}".getBytes());
            exchange.close();
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    @Test
    void everyRequestCarriesTheCliUserAgentOnce() {
        URI uri = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/x");
        try (Http http = new Http(null, new PrintWriter(new StringWriter()), false)) {
            http.get(uri);
            http.postForm(uri, java.util.Map.of("a", "b"));
            http.send(HttpRequest.newBuilder(uri).header("User-Agent", "curl/8").GET().build());
            http.stream(HttpRequest.newBuilder(uri).GET().build(), line -> { });
        }

        assertThat(agents).hasSize(4).allSatisfy(a -> assertThat(a).isEqualTo(BuildInfo.userAgent()));
        assertThat(BuildInfo.userAgent()).matches("svc-cli/\\S+").doesNotEndWith("/unknown");
    }
}
