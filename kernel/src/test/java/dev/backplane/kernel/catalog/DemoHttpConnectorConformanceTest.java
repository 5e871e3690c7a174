package dev.backplane.kernel.catalog;

import com.sun.net.httpserver.HttpServer;
import dev.backplane.plugin.api.ConnectorFactory;
import dev.backplane.plugin.api.Credential;
import dev.backplane.plugin.api.OperationRequest;
import dev.backplane.plugin.api.TargetSpec;
import dev.backplane.plugin.api.testkit.ConnectorConformanceTest;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The conformance kit run against a connector talking to a real HTTP server on loopback. */
class DemoHttpConnectorConformanceTest extends ConnectorConformanceTest {

    private static final String PASSWORD = "pa55-w0rd-never-shown";
    private static HttpServer server;

    @BeforeAll
    static void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        String expected = "Basic " + Base64.getEncoder().encodeToString(("svc:" + PASSWORD).getBytes(StandardCharsets.UTF_8));
        server.createContext("/", exchange -> {
            boolean ok = expected.equals(exchange.getRequestHeaders().getFirst("Authorization"));
            byte[] body = (!ok ? "{}" : exchange.getRequestURI().getPath().equals("/version") ? "1.4.2"
                    : "[{\"name\":\"a\"},{\"name\":\"b\"}]").getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(ok ? 200 : 401, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
    }

    @AfterAll
    static void stop() {
        server.stop(0);
    }

    @org.junit.jupiter.api.Test
    void theKitCatchesAConnectorThatLogsItsCredential() {
        DemoHttpConnectorConformanceTest leaky = new DemoHttpConnectorConformanceTest() {
            @Override
            protected Subject subject() {
                DemoHttpConnector real = new DemoHttpConnector();
                return super.subject().withFactory(new ConnectorFactory() {
                    public dev.backplane.plugin.api.ConnectorDescriptor descriptor() {
                        return real.descriptor();
                    }

                    public dev.backplane.plugin.api.Catalog catalog() {
                        return real.catalog();
                    }

                    public dev.backplane.plugin.api.Connector open(dev.backplane.plugin.api.ConnectorContext ctx,
                                                                   TargetSpec t, Credential c) {
                        ctx.logger().log(System.Logger.Level.DEBUG, "login with " + c.field("password"));
                        return real.open(ctx, t, c);
                    }
                });
            }
        };
        org.assertj.core.api.Assertions.assertThatThrownBy(leaky::credentialValuesNeverAppearInResultsErrorsOrLogs)
                .isInstanceOf(AssertionError.class).hasMessageContaining("leaked");
    }

    @Override
    protected Subject subject() {
        return new Subject(new DemoHttpConnector(),
                new TargetSpec("demo", "demohttp", "127.0.0.1", server.getAddress().getPort(), Optional.empty(), true,
                        Optional.empty(), Optional.empty(), Map.of()),
                new Credential(Map.of("username", "svc", "password", PASSWORD)),
                new Credential(Map.of("username", "svc", "password", "wrong-password-also-secret")),
                List.of(new OperationRequest("demohttp.item.list", Map.of(), Optional.empty()),
                        new OperationRequest("demohttp.item.delete", Map.of("name", "a"), Optional.empty())));
    }
}
