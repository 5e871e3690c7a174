package dev.backplane.client.support;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.backplane.client.ApiClient;
import dev.backplane.client.ApiException;
import dev.backplane.client.model.ErrorEnvelope;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * An {@link ApiClient} for one backplane: its base URL, a bearer token on every request, and a mapper that refuses
 * answers missing a required property ({@link RequiredProperties}). Pass the client to the generated API classes
 * ({@code new TargetsApi(client)}); an error answer is an {@link ApiException} whose body is SPEC's ErrorEnvelope
 * ({@link #error(ApiException)}, {@link #errorCode(ApiException)}).
 */
public final class SvcClients {

    private static final ObjectMapper ENVELOPES = ApiClient.createDefaultObjectMapper();

    private SvcClients() {
    }

    /** A client of {@code backplane} (e.g. {@code https://svc.example.com}) sending {@code token} as the bearer. */
    public static ApiClient create(URI backplane, String token) {
        Objects.requireNonNull(token, "token is null");
        return create(backplane, () -> token, false);
    }

    /**
     * A client of {@code backplane} asking {@code token} for the bearer before every request (a token that is
     * refreshed). {@code failOnUnknownProperties}: whether an answer carrying a property the document does not
     * describe is an error — off for applications (the API adds fields within a version), on where the client is
     * the check that the document and the server agree (the kernel's tests).
     */
    public static ApiClient create(URI backplane, Supplier<String> token, boolean failOnUnknownProperties) {
        Objects.requireNonNull(backplane, "backplane is null");
        Objects.requireNonNull(token, "token is null");
        ObjectMapper mapper = ApiClient.createDefaultObjectMapper()
                .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, failOnUnknownProperties)
                .registerModule(new RequiredProperties());
        String base = backplane.toString();
        ApiClient client = new ApiClient(ApiClient.createDefaultHttpClientBuilder()
                .connectTimeout(Duration.ofSeconds(10)), mapper, base.endsWith("/") ? base.substring(0, base.length() - 1) : base);
        client.setRequestInterceptor(request -> request.header("Authorization", "Bearer " + token.get()));
        return client;
    }

    /** The ErrorEnvelope of an error answer; empty when the exception carries none (a network failure). */
    public static Optional<ErrorEnvelope> error(ApiException e) {
        String body = e.getResponseBody();
        if (body == null || body.isBlank()) {
            return Optional.empty();
        }
        try {
            return Optional.of(ENVELOPES.readValue(body, ErrorEnvelope.class));
        } catch (IOException notAnEnvelope) {
            return Optional.empty();
        }
    }

    /** SPEC's error code of an error answer ({@code target_not_found}, {@code four_eyes}, ...), or {@code null}. */
    public static String errorCode(ApiException e) {
        return error(e).map(ErrorEnvelope::getError).orElse(null);
    }
}
