package dev.backplane.kernel.agents;

import dev.backplane.kernel.credentials.CredentialService;
import dev.backplane.plugin.api.ConnectorException;
import dev.langchain4j.http.client.jdk.JdkHttpClientBuilder;
import dev.langchain4j.model.anthropic.AnthropicStreamingChatModel;
import dev.langchain4j.model.chat.StreamingChatModel;
import dev.langchain4j.model.openai.OpenAiStreamingChatModel;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import javax.net.ssl.SSLContext;

/**
 * The model provider seam of agent runs: a LangChain4j chat model per tier, from configuration — an
 * OpenAI-compatible endpoint (OpenAI, vLLM, Ollama, LiteLLM) or Anthropic. The API key is read through
 * the credential backend by secret_ref when a run starts, never kept in settings, logs or rows.
 */
public final class ModelGateway {

    /**
     * @param provider {@code openai} or {@code anthropic}
     * @param baseUrl the endpoint; empty: not configured
     * @param apiKeyRef a platform-scope secret_ref whose field {@code api_key} is the key
     * @param models model name per tier (standard, fast, deep); a blank tier uses standard's
     * @param sslContext the TLS trust of an https endpoint: the JDK's roots and the kernel's {@code tls.ca-bundle}
     */
    public record Settings(String provider, Optional<String> baseUrl, Optional<String> apiKeyRef,
                           Map<String, String> models, Duration timeout, SSLContext sslContext) {
    }

    private final Settings settings;
    private final CredentialService credentials;
    /** Clients per (tier, key digest): built once, not per run; a rotated key simply gets its own entry. */
    private final com.github.benmanes.caffeine.cache.Cache<String, StreamingChatModel> clients =
            com.github.benmanes.caffeine.cache.Caffeine.newBuilder().maximumSize(32).build();

    public ModelGateway(Settings settings, CredentialService credentials) {
        this.settings = settings;
        this.credentials = credentials;
    }

    /**
     * The (streaming) chat model of a tier, or {@code 503 model_not_configured}/{@code model_key_unavailable}.
     * Streaming, so a cancelled run stops waiting at once and a long answer does not hit a read timeout.
     */
    StreamingChatModel model(String tier) {
        String url = settings.baseUrl().orElseThrow(() -> AgentRunErrors.MODEL_NOT_CONFIGURED.error("no model endpoint "
                + "is configured (agents.model.base-url / SVC_AGENTS_MODEL_BASE_URL); agent runs cannot start"));
        String name = Optional.ofNullable(settings.models().get(tier)).filter(n -> !n.isBlank())
                .orElse(settings.models().get("standard"));
        String key = settings.apiKeyRef().map(this::key).orElse("none");
        return clients.get(tier + "/" + dev.backplane.kernel.util.Digests.sha256Hex(key), k -> build(url, name, key));
    }

    private StreamingChatModel build(String url, String name, String key) {
        JdkHttpClientBuilder http = new JdkHttpClientBuilder().httpClientBuilder(HttpClient.newBuilder()
                .sslContext(settings.sslContext()));
        return switch (settings.provider()) {
            case "anthropic" -> AnthropicStreamingChatModel.builder().baseUrl(url).apiKey(key).modelName(name)
                    .httpClientBuilder(http).timeout(settings.timeout()).build();
            default -> OpenAiStreamingChatModel.builder().baseUrl(url).apiKey(key).modelName(name)
                    .httpClientBuilder(http).timeout(settings.timeout()).build();
        };
    }

    private String key(String ref) {
        try {
            var secret = credentials.resolve(Optional.empty(), ref);
            if (!secret.has("api_key")) {
                throw AgentRunErrors.MODEL_KEY_UNAVAILABLE.error("the secret at agents.model.api-key-ref has no field "
                        + "api_key");
            }
            return secret.field("api_key");
        } catch (ConnectorException e) {
            throw AgentRunErrors.MODEL_KEY_UNAVAILABLE.error("the model API key could not be read: " + e.getMessage());
        }
    }
}
