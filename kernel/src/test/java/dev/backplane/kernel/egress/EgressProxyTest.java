package dev.backplane.kernel.egress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.backplane.kernel.testing.LoopbackHttp;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The plugins' HTTP egress: every connect is checked where it happens, so DNS rebinding cannot pass. */
class EgressProxyTest {

    @Test
    void aRebindingNameIsRefusedAtConnectTimeForHttpAndHttps() throws Exception {
        HttpServer target = LoopbackHttp.start(x -> LoopbackHttp.answer(x, 200, "internal secret page"));
        AtomicInteger lookups = new AtomicInteger();
        SsrfGuard.Dns rebinding = host -> host.equals("rebind.example")
                ? new InetAddress[] {InetAddress.getByName(lookups.getAndIncrement() == 0 ? "93.184.216.34" : "127.0.0.1")}
                : new InetAddress[] {InetAddress.getByName(host)};
        SsrfGuard guard = new SsrfGuard(List.of(), rebinding);
        assertThat(guard.check("rebind.example")).as("passes at registration").isNotEmpty();
        try (EgressProxy proxy = new EgressProxy(new GuardedSocketFactory(guard, 2000));
             HttpClient client = HttpClient.newBuilder().proxy(proxy.selector()).build()) {
            int port = target.getAddress().getPort();
            HttpResponse<String> plain = client.send(HttpRequest.newBuilder(
                    URI.create("http://rebind.example:" + port + "/")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(plain.statusCode()).isEqualTo(403);
            assertThat(plain.headers().firstValue("X-Svc-Egress")).hasValue("refused");
            assertThat(plain.body()).contains("SSRF guard").contains("127.0.0.1").doesNotContain("internal secret page");

            assertThatThrownBy(() -> client.send(HttpRequest.newBuilder(URI.create("https://rebind.example:" + port + "/"))
                    .build(), HttpResponse.BodyHandlers.ofString())).isInstanceOf(IOException.class);
        } finally {
            target.stop(0);
        }
    }

    @Test
    void plainHttpIsRelayedWithKeepAliveOnBothSides() throws Exception {
        HttpServer target = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        List<String> seen = new CopyOnWriteArrayList<>();
        Set<Integer> upstreamPorts = ConcurrentHashMap.newKeySet();
        target.createContext("/", x -> {
            upstreamPorts.add(x.getRemoteAddress().getPort());
            seen.add(x.getRequestMethod() + " " + x.getRequestURI() + " proxy-header=" + x.getRequestHeaders()
                    .getFirst("Proxy-Authorization"));
            byte[] b = x.getRequestBody().readAllBytes();
            switch (x.getRequestURI().getPath()) {
                case "/chunked" -> { // length unknown: the server sends it chunked
                    x.sendResponseHeaders(200, 0);
                    for (int i = 0; i < 3; i++) {
                        x.getResponseBody().write(("part-" + i + ";").getBytes(StandardCharsets.UTF_8));
                        x.getResponseBody().flush();
                    }
                }
                case "/empty" -> x.sendResponseHeaders(204, -1);
                default -> {
                    x.sendResponseHeaders(200, b.length);
                    x.getResponseBody().write(b);
                }
            }
            x.close();
        });
        target.start();
        String base = "http://target.test:" + target.getAddress().getPort(); // a name: relayed by the proxy
        try (EgressProxy proxy = new EgressProxy(new GuardedSocketFactory(loopbackNamed(), 2000));
             HttpClient client = HttpClient.newBuilder().proxy(proxy.selector()).build()) {
            for (int i = 0; i < 3; i++) {
                HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create(base + "/echo?n=" + i))
                        .POST(HttpRequest.BodyPublishers.ofString("body-" + i)).build(), HttpResponse.BodyHandlers.ofString());
                assertThat(r.statusCode()).isEqualTo(200);
                assertThat(r.body()).isEqualTo("body-" + i);
                assertThat(r.headers().firstValue("connection")).isEmpty();
            }
            byte[] big = "x".repeat(200_000).getBytes(StandardCharsets.UTF_8);
            HttpResponse<String> streamed = client.send(HttpRequest.newBuilder(URI.create(base + "/echo"))
                    .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(big))).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(streamed.body()).as("a chunked request body arrives whole").hasSize(big.length);
            assertThat(client.send(HttpRequest.newBuilder(URI.create(base + "/chunked")).build(),
                    HttpResponse.BodyHandlers.ofString()).body()).isEqualTo("part-0;part-1;part-2;");
            assertThat(client.send(HttpRequest.newBuilder(URI.create(base + "/empty")).build(),
                    HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(204);
            assertThat(client.send(HttpRequest.newBuilder(URI.create(base + "/echo?after=all")).build(),
                    HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);
            assertThat(seen).hasSize(7).startsWith("POST /echo?n=0 proxy-header=null", "POST /echo?n=1 proxy-header=null",
                    "POST /echo?n=2 proxy-header=null");
            assertThat(upstreamPorts).as("the proxy reuses its connection to the target").hasSize(1);
        } finally {
            target.stop(0);
        }
    }

    @Test
    void aResponseWithoutFramingIsRelayedToTheEndAndClosesTheClientConnection() throws Exception {
        try (java.net.ServerSocket raw = new java.net.ServerSocket(0, 10, InetAddress.getLoopbackAddress())) {
            Thread.ofVirtual().start(() -> {
                for (int i = 0; i < 2; i++) {
                    try (java.net.Socket s = raw.accept()) {
                        new java.io.BufferedReader(new java.io.InputStreamReader(s.getInputStream())).readLine();
                        s.getOutputStream().write(("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nuntil-close-" + i)
                                .getBytes(StandardCharsets.US_ASCII));
                    } catch (IOException ignored) {
                        return;
                    }
                }
            });
            SsrfGuard guard = loopbackNamed();
            try (EgressProxy proxy = new EgressProxy(new GuardedSocketFactory(guard, 2000));
                 HttpClient client = HttpClient.newBuilder().proxy(proxy.selector()).build()) {
                for (int i = 0; i < 2; i++) {
                    HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create("http://target.test:"
                            + raw.getLocalPort() + "/")).build(), HttpResponse.BodyHandlers.ofString());
                    assertThat(r.body()).isEqualTo("until-close-" + i);
                    assertThat(r.headers().firstValue("connection")).hasValue("close");
                }
            }
        }
    }

    @Test
    void anIpLiteralTheGuardAdmitsGoesStraightToTheTargetAndEverythingElseThroughTheProxy() throws Exception {
        HttpServer target = LoopbackHttp.start(x -> LoopbackHttp.answer(x, 200, "page"));
        int port = target.getAddress().getPort();
        try (EgressProxy allowing = new EgressProxy(new GuardedSocketFactory(loopbackNamed(), 2000));
             EgressProxy refusing = new EgressProxy(new GuardedSocketFactory(new SsrfGuard(List.of(),
                     InetAddress::getAllByName), 2000));
             HttpClient direct = HttpClient.newBuilder().proxy(allowing.selector()).build();
             HttpClient guarded = HttpClient.newBuilder().proxy(refusing.selector()).build()) {
            java.net.ProxySelector routes = allowing.selector();
            assertThat(routes.select(URI.create("http://127.0.0.1:" + port + "/"))).containsExactly(java.net.Proxy.NO_PROXY);
            assertThat(routes.select(URI.create("https://127.0.0.2/"))).containsExactly(java.net.Proxy.NO_PROXY);
            assertThat(routes.select(URI.create("http://target.test:" + port + "/"))).as("a name is resolved by the proxy")
                    .allMatch(p -> p.type() == java.net.Proxy.Type.HTTP);
            assertThat(routes.select(URI.create("http://[::1]:" + port + "/"))).as("outside the allowlist")
                    .allMatch(p -> p.type() == java.net.Proxy.Type.HTTP);
            assertThat(routes.select(URI.create("http://10.0.0.1/"))).allMatch(p -> p.type() == java.net.Proxy.Type.HTTP);
            assertThat(direct.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/")).build(),
                    HttpResponse.BodyHandlers.ofString()).body()).isEqualTo("page");

            HttpResponse<String> refused = guarded.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/"))
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertThat(refused.statusCode()).as("a literal the guard refuses still gets the proxy's answer").isEqualTo(403);
            assertThat(refused.headers().firstValue("X-Svc-Egress")).hasValue("refused");
            assertThat(refused.body()).doesNotContain("page");
        } finally {
            target.stop(0);
        }
    }

    /** A request the proxy cannot act on gets its own 400 over the socket, never a dropped connection. */
    @Test
    void aBlankHeadOrAnOutOfRangeConnectPortIsAnsweredWith400() throws Exception {
        try (EgressProxy proxy = new EgressProxy(new GuardedSocketFactory(loopbackNamed(), 2000))) {
            for (String request : List.of("\r\n\r\n", "CONNECT target.test:70000 HTTP/1.1\r\nHost: target.test\r\n\r\n",
                    "CONNECT :443 HTTP/1.1\r\n\r\n")) {
                try (java.net.Socket s = new java.net.Socket(InetAddress.getLoopbackAddress(), proxy.port())) {
                    s.setSoTimeout(5000);
                    s.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
                    String answer = new String(s.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
                    assertThat(answer).as(request.strip()).startsWith("HTTP/1.1 400 ");
                }
            }
        }
    }

    /** A guard that admits loopback by CIDR, where {@code target.test} resolves to 127.0.0.1 (a name: proxied). */
    private static SsrfGuard loopbackNamed() {
        return new SsrfGuard(List.of("127.0.0.0/8"), host -> host.equals("target.test")
                ? new InetAddress[] {InetAddress.getByName("127.0.0.1")} : InetAddress.getAllByName(host));
    }
}
