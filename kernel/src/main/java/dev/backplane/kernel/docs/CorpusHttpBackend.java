package dev.backplane.kernel.docs;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.credentials.CredentialService;
import dev.backplane.kernel.egress.EgressProxy;
import dev.backplane.kernel.egress.SsrfGuard;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.util.JsonMapping;
import dev.backplane.plugin.api.ConnectorException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * {@code corpus-http}: a corpus-over-HTTP retrieval service. The backplane POSTs
 * {@code {"query", "limit", "filters": {"product", "version"}}} as JSON to the collection's URL and
 * expects {@code {"chunks": [{"id", "text", "title", "url", "score"}]}}, best first. The URL is an
 * outbound destination like a target's host: checked by the SSRF guard when it is set, and every
 * connection goes through the egress proxy, which checks the address actually dialled. A bearer
 * token comes from {@code secret_ref} (field {@code token}), resolved through the credential
 * backend at each call and never stored. {@link CorpusHttpRef} checks the backend_ref.
 */
final class CorpusHttpBackend implements DocsBackend {

    static final String TYPE = "corpus-http";
    static final String TOKEN_FIELD = "token";
    private static final int MAX_RESPONSE_BYTES = 4 << 20;
    private static final int MAX_TEXT_CHARS = 16_000;

    private final HttpClient http;
    private final CorpusHttpRef refs;
    private final CredentialService credentials;
    private final Duration timeout;

    CorpusHttpBackend(EgressProxy egress, SsrfGuard ssrf, CredentialService credentials, Duration timeout) {
        this.http = HttpClient.newBuilder().proxy(egress.selector()).connectTimeout(timeout)
                .followRedirects(HttpClient.Redirect.NEVER).build();
        this.refs = new CorpusHttpRef(ssrf, credentials.backend());
        this.credentials = credentials;
        this.timeout = timeout;
    }

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public Map<String, Object> validate(Optional<UUID> owner, String key, Map<String, Object> ref) {
        return refs.validate(owner, key, ref);
    }

    @Override
    public List<Passage> retrieve(DocCollection c, Request r) {
        if (!(c.backendRef().get("url") instanceof String url)) {
            throw DocsErrors.BACKEND_NOT_CONFIGURED.error("collection '" + c.key()
                    + "' has no backend (its backend_ref is empty); set one with svc docs collections update "
                    + c.key() + " --backend-ref", Map.of("collection", c.key()));
        }
        Map<String, Object> filters = new LinkedHashMap<>();
        r.product().ifPresent(p -> filters.put("product", p));
        r.version().ifPresent(v -> filters.put("version", v));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("query", r.query());
        body.put("limit", r.limit());
        body.put("filters", filters);
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(timeout)
                .header("Content-Type", "application/json").header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(JsonMapping.write(body)));
        if (c.backendRef().get("headers") instanceof Map<?, ?> headers) {
            headers.forEach((k, v) -> b.header(String.valueOf(k), String.valueOf(v)));
        }
        if (c.backendRef().get("secret_ref") instanceof String secretRef) {
            b.header("Authorization", "Bearer " + token(c, secretRef));
        }
        return parse(c.key(), send(c.key(), b.build()), r.limit());
    }

    private String token(DocCollection c, String secretRef) {
        String key = c.key();
        try {
            var credential = credentials.resolve(c.ownerTenantId(), secretRef);
            if (!credential.has(TOKEN_FIELD)) {
                throw DocsErrors.BACKEND_CREDENTIAL_UNAVAILABLE.error("collection '" + key
                        + "': the secret at " + secretRef + " has no field '" + TOKEN_FIELD + "'",
                        Map.of("collection", key, "secret_ref", secretRef));
            }
            return credential.field(TOKEN_FIELD);
        } catch (ConnectorException e) {
            throw DocsErrors.BACKEND_CREDENTIAL_UNAVAILABLE.error("collection '" + key
                    + "': the backend token could not be read (" + e.code().wireName() + ": " + e.getMessage() + ")",
                    Map.of("collection", key, "secret_ref", secretRef));
        }
    }

    private byte[] send(String key, HttpRequest request) {
        HttpResponse<InputStream> res;
        byte[] bytes;
        try {
            res = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
            try (InputStream in = res.body()) {
                bytes = in.readNBytes(MAX_RESPONSE_BYTES + 1);
            }
        } catch (HttpTimeoutException e) {
            throw unreachable(key, "timeout", "no answer within " + timeout.toMillis() + " ms");
        } catch (IOException e) {
            throw unreachable(key, "connect_failed", String.valueOf(e.getMessage()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw unreachable(key, "interrupted", "the call was interrupted");
        }
        Optional<String> egress = res.headers().firstValue("X-Svc-Egress");
        if (egress.isPresent()) { // the egress proxy answered, not the backend
            String why = new String(bytes, 0, Math.min(bytes.length, 500), java.nio.charset.StandardCharsets.UTF_8);
            throw unreachable(key, egress.get().equals("refused") ? "ssrf_refused" : "connect_failed", why.strip());
        }
        if (res.statusCode() / 100 != 2) {
            throw DocsErrors.BACKEND_ERROR.error("collection '" + key + "': the retrieval "
                    + "backend answered HTTP " + res.statusCode(), Map.of("collection", key, "backend_status",
                    res.statusCode()));
        }
        if (bytes.length > MAX_RESPONSE_BYTES) {
            throw malformed(key, "the answer exceeds " + MAX_RESPONSE_BYTES + " bytes");
        }
        return bytes;
    }

    private static List<Passage> parse(String key, byte[] body, int limit) {
        JsonNode root;
        try {
            root = JsonMapping.mapper().readTree(body);
        } catch (IOException e) {
            throw malformed(key, "the answer is not JSON");
        }
        if (root == null || !root.path("chunks").isArray()) {
            throw malformed(key, "the answer has no chunks array");
        }
        List<Passage> out = new ArrayList<>();
        Set<String> seen = new java.util.HashSet<>();
        for (JsonNode ch : root.path("chunks")) {
            if (!ch.path("id").isValueNode() || ch.path("id").asText().isEmpty() || !ch.path("text").isTextual()) {
                throw malformed(key, "every chunk needs an id and a text");
            }
            if (!seen.add(ch.path("id").asText())) {
                continue;
            }
            String text = ch.path("text").asText();
            out.add(new Passage(key, ch.path("id").asText(),
                    text.length() <= MAX_TEXT_CHARS ? text : text.substring(0, MAX_TEXT_CHARS),
                    optionalText(ch, "title"), optionalText(ch, "url"),
                    ch.path("score").isNumber() ? Optional.of(ch.path("score").asDouble()) : Optional.empty()));
            if (out.size() == limit) {
                break;
            }
        }
        return out;
    }

    private static Optional<String> optionalText(JsonNode n, String field) {
        return n.path(field).isTextual() && !n.path(field).asText().isBlank() ? Optional.of(n.path(field).asText())
                : Optional.empty();
    }

    private static DomainException unreachable(String key, String reason, String detail) {
        return DocsErrors.BACKEND_UNREACHABLE.error("collection '" + key + "': the "
                + "retrieval backend cannot be reached (" + reason + ": " + detail + ")",
                Map.of("collection", key, "reason", reason));
    }

    private static DomainException malformed(String key, String why) {
        return DocsErrors.BACKEND_ERROR.error("collection '" + key + "': the retrieval "
                + "backend broke the corpus-http contract: " + why, Map.of("collection", key, "reason",
                "malformed_response"));
    }
}
