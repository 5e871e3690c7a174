package dev.backplane.kernel.console;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.util.JsonMapping;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The identity provider over HTTP: its endpoints, read once from the issuer's discovery document, and form posts to
 * them. A provider that cannot be reached, answers something not JSON or names no such endpoint is
 * {@code identity_provider_unavailable}; what its answers mean is {@link OidcLogin}'s business.
 */
final class OidcProvider {

    private final String issuer;
    private final HttpClient http;
    private volatile JsonNode discovery;

    /** @param issuer the trusted issuer (trailing slashes dropped) */
    OidcProvider(String issuer, HttpClient http) {
        this.issuer = issuer.replaceAll("/+$", "");
        this.http = http;
    }

    /** POSTs {@code values} url-encoded to the endpoint the discovery document names {@code endpointName}. */
    HttpResponse<String> postForm(String endpointName, Map<String, String> values) {
        return send(HttpRequest.newBuilder(URI.create(endpoint(endpointName)))
                .timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form(values))).build());
    }

    /** The URL the issuer's discovery document gives for {@code name} (fetched on first use, then kept). */
    String endpoint(String name) {
        String value = optionalEndpoint(name).orElse("");
        if (value.isEmpty()) {
            throw ConsoleErrors.IDENTITY_PROVIDER_UNAVAILABLE.error("the issuer's discovery document has no " + name);
        }
        return value;
    }

    /** As {@link #endpoint}, empty when the discovery document names no such endpoint (an optional feature). */
    Optional<String> optionalEndpoint(String name) {
        JsonNode d = discovery;
        if (d == null) {
            String url = issuer + "/.well-known/openid-configuration";
            HttpResponse<String> res = send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build());
            if (res.statusCode() != 200) {
                throw ConsoleErrors.IDENTITY_PROVIDER_UNAVAILABLE.error(url + " answered HTTP " + res.statusCode());
            }
            d = parse(res.body());
            discovery = d;
        }
        return Optional.of(d.path(name).asText("")).filter(v -> !v.isEmpty());
    }

    private HttpResponse<String> send(HttpRequest req) {
        try {
            return http.send(req, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw ConsoleErrors.IDENTITY_PROVIDER_UNAVAILABLE.error("the identity provider is unreachable: "
                    + e.getClass().getSimpleName());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw ConsoleErrors.IDENTITY_PROVIDER_UNAVAILABLE.error("interrupted calling the identity provider");
        }
    }

    /** A JSON answer of the provider. */
    static JsonNode parse(String body) {
        try {
            return JsonMapping.mapper().readTree(body);
        } catch (IOException e) {
            throw ConsoleErrors.IDENTITY_PROVIDER_UNAVAILABLE.error("the identity provider answered something not JSON");
        }
    }

    /** {@code values} as {@code application/x-www-form-urlencoded}, in their order. */
    static String form(Map<String, String> values) {
        return values.entrySet().stream().map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "="
                + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8)).collect(Collectors.joining("&"));
    }
}
