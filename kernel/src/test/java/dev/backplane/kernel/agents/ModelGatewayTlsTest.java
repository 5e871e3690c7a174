package dev.backplane.kernel.agents;

import static org.assertj.core.api.Assertions.assertThat;

import dev.backplane.kernel.app.OutboundTrust;
import dev.backplane.kernel.testing.TlsFixture;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.chat.response.StreamingChatResponseHandler;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An OpenAI-compatible model endpoint served over https with a certificate of a private CA (an in-cluster vLLM, say):
 * the model client refuses it with the JDK's roots alone and streams its answer once the kernel's
 * {@code tls.ca-bundle} holds that CA.
 */
class ModelGatewayTlsTest {

    private static final String STREAM = """
            data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,\
            "delta":{"role":"assistant","content":"over tls"},"finish_reason":null}]}

            data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,\
            "delta":{},"finish_reason":"stop"}]}

            data: [DONE]

            """;

    @TempDir
    Path dir;
    private TlsFixture.SelfSigned tls;
    private final List<String> requests = new CopyOnWriteArrayList<>();

    @BeforeEach
    void privateCaModelEndpoint() throws Exception {
        tls = TlsFixture.SelfSigned.create(dir.resolve("model.p12"), "model.test", "dns:model.test,ip:127.0.0.1");
        tls.server().createContext("/", x -> {
            requests.add(x.getRequestMethod() + " " + x.getRequestURI().getPath());
            x.getRequestBody().readAllBytes();
            byte[] b = STREAM.getBytes(StandardCharsets.UTF_8);
            x.getResponseHeaders().add("Content-Type", "text/event-stream");
            x.sendResponseHeaders(200, b.length);
            x.getResponseBody().write(b);
            x.close();
        });
        tls.server().start();
    }

    @AfterEach
    void stop() {
        tls.server().stop(0);
    }

    @Test
    void thePrivateCaIsRefusedWithTheJdkRootsAndTrustedWithTheBundle() throws Exception {
        CompletableFuture<ChatResponse> refused = chat(SSLContext.getDefault());
        assertThat(refused).failsWithin(Duration.ofSeconds(20)).withThrowableThat()
                .withStackTraceContaining("PKIX path building failed");
        assertThat(requests).as("no request got past the handshake").isEmpty();

        SSLContext trust = OutboundTrust.withBundle(Files.writeString(dir.resolve("ca.pem"), tls.pem())).sslContext();
        ChatResponse answer = chat(trust).get(20, TimeUnit.SECONDS);
        assertThat(answer.aiMessage().text()).isEqualTo("over tls");
        assertThat(requests).containsExactly("POST /v1/chat/completions");
    }

    private CompletableFuture<ChatResponse> chat(SSLContext trust) {
        ModelGateway gateway = new ModelGateway(new ModelGateway.Settings("openai",
                Optional.of("https://127.0.0.1:" + tls.server().getAddress().getPort() + "/v1"), Optional.empty(),
                Map.of("standard", "m"), Duration.ofSeconds(10), trust), null);
        CompletableFuture<ChatResponse> done = new CompletableFuture<>();
        gateway.model("standard").chat("hello", new StreamingChatResponseHandler() {
            @Override
            public void onPartialResponse(String partial) {
            }

            @Override
            public void onCompleteResponse(ChatResponse response) {
                done.complete(response);
            }

            @Override
            public void onError(Throwable error) {
                done.completeExceptionally(error);
            }
        });
        return done;
    }
}
