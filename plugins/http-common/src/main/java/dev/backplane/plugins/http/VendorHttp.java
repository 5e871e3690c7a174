package dev.backplane.plugins.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.backplane.plugin.api.ConnectorContext;
import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.Credential;
import dev.backplane.plugin.api.ErrorCode;
import dev.backplane.plugin.api.TargetSpec;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.StringJoiner;
import javax.net.ssl.SSLException;

/**
 * JSON over HTTP to one target of a typed plugin (Prometheus, Alertmanager, Loki): the origin from the
 * target ({@code https} unless its extras say {@code "scheme": "http"}), the credential as an
 * {@code Authorization} header (bearer {@code token}, or HTTP Basic), fixed extra headers, and every
 * failure turned into the SPEC's error codes through the kernel-lent client (TLS and SSRF guard
 * included). Answers larger than {@link #MAX_BODY_BYTES} are refused rather than buffered. Shaded
 * into each plugin jar that uses it, like the SSH layer.
 */
public final class VendorHttp {

    public static final ObjectMapper JSON = new ObjectMapper();
    public static final int MAX_BODY_BYTES = 32 * 1024 * 1024;

    /** One request: method, path, query (repeatable keys) and an optional JSON body. */
    public record Request(String method, String path, Map<String, List<String>> query, Optional<Object> body) {
    }

    private final ConnectorContext ctx;
    private final TargetSpec target;
    private final Credential credential;
    private final Map<String, String> headers;
    private final String origin;

    /** @param headers sent with every request (e.g. a multi-tenant server's tenant header) */
    public VendorHttp(ConnectorContext ctx, TargetSpec target, Credential credential, Map<String, String> headers) {
        this.ctx = ctx;
        this.target = target;
        this.credential = credential;
        this.headers = Map.copyOf(headers);
        this.origin = origin(target);
    }

    /**
     * {@code <scheme>://<host>:<port>} of a target: {@code extras.scheme} {@code http} or (default) {@code https},
     * an IPv6 literal in brackets. Every HTTP plugin addresses its target this way.
     */
    public static String origin(TargetSpec target) {
        Object extra = target.extras().get("scheme");
        String scheme = extra == null ? "https" : extra.toString().strip().toLowerCase(Locale.ROOT);
        String host = target.host().contains(":") && !target.host().startsWith("[") ? "[" + target.host() + "]"
                : target.host();
        return (scheme.equals("http") ? "http" : "https") + "://" + host + ":" + target.port();
    }

    /** The {@code Authorization} header value, or empty for a target that declares {@code "auth": "none"}. */
    private Optional<String> authorization() {
        if ("none".equals(target.extras().get("auth"))) {
            return Optional.empty();
        }
        if (credential.has("token")) {
            return Optional.of("Bearer " + credential.field("token"));
        }
        if (credential.has("username") && credential.has("password")) {
            return Optional.of("Basic " + Base64.getEncoder().encodeToString((credential.field("username") + ":"
                    + credential.field("password")).getBytes(StandardCharsets.UTF_8)));
        }
        throw new ConnectorException(ErrorCode.CONNECTOR_ERROR, "the credential needs 'username' and 'password' "
                + "(HTTP Basic) or 'token' (bearer); a target without authentication sets extras {\"auth\": \"none\"}",
                Map.of("missing_field", credential.has("username") ? "password" : "username"), null);
    }

    /** Sends the request and returns the parsed JSON answer of a 2xx, else throws the mapped error. */
    public JsonNode send(Request r) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(origin + r.path() + queryString(r.query())))
                .timeout(ctx.timeout()).header("Accept", "application/json");
        authorization().ifPresent(a -> b.header("Authorization", a));
        headers.forEach(b::header);
        if (r.body().isPresent()) {
            try {
                b.header("Content-Type", "application/json").method(r.method(),
                        HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(r.body().get())));
            } catch (IOException e) {
                throw new ConnectorException(ErrorCode.CONNECTOR_ERROR, "cannot encode the request body", Map.of(), null);
            }
        } else {
            b.method(r.method(), HttpRequest.BodyPublishers.noBody());
        }
        HttpResponse<InputStream> response;
        byte[] body;
        try {
            response = ctx.httpClient().send(b.build(), HttpResponse.BodyHandlers.ofInputStream());
            try (InputStream in = response.body()) {
                body = in.readNBytes(MAX_BODY_BYTES + 1);
            }
        } catch (HttpTimeoutException e) {
            throw new ConnectorException(ErrorCode.CONNECTOR_TIMEOUT, target.product() + " at " + target.host() + ":"
                    + target.port() + " did not answer within " + ctx.timeout().toMillis() + " ms", Map.of(), null);
        } catch (IOException e) {
            throw transportError(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ConnectorException(ErrorCode.CONNECTOR_TIMEOUT, "the call was interrupted", Map.of(), null);
        }
        if (body.length > MAX_BODY_BYTES) {
            throw new ConnectorException(ErrorCode.CONNECTOR_ERROR, "the answer is larger than " + MAX_BODY_BYTES
                    + " bytes; narrow the query (a shorter range, a larger step, a more specific selector)",
                    Map.of("status", response.statusCode()), null);
        }
        return answer(response.statusCode(), r, body);
    }

    private JsonNode answer(int status, Request r, byte[] body) {
        JsonNode json = parse(body);
        if (status / 100 == 2) {
            if (json == null && body.length > 0) {
                throw new ConnectorException(ErrorCode.CONNECTOR_ERROR, r.method() + " " + r.path() + " answered "
                        + status + " with a body that is not JSON (is this " + target.product() + "?)",
                        Map.of("status", status), null);
            }
            return json == null ? JSON.nullNode() : json;
        }
        String detail = detail(json, body);
        Map<String, Object> extras = new LinkedHashMap<>();
        extras.put("status", status);
        if (json != null && json.hasNonNull("errorType")) {
            extras.put("error_type", json.path("errorType").asText());
        }
        if (status == 401) {
            throw new ConnectorException(ErrorCode.CONNECTOR_AUTH_FAILED, target.product() + " rejected the credential "
                    + "(401)", extras, null);
        }
        String errorType = json == null ? "" : json.path("errorType").asText("");
        ErrorCode code = switch (errorType) {
            case "bad_data" -> ErrorCode.INVALID_PARAMS;
            case "timeout", "canceled" -> ErrorCode.CONNECTOR_TIMEOUT;
            default -> status == 400 || status == 422 && errorType.isEmpty() ? ErrorCode.INVALID_PARAMS
                    : ErrorCode.CONNECTOR_ERROR;
        };
        throw new ConnectorException(code, target.product() + " answered " + status + ": " + detail, extras, null);
    }

    private static JsonNode parse(byte[] body) {
        if (body.length == 0) {
            return null;
        }
        try {
            return JSON.readTree(body);
        } catch (IOException e) {
            return null;
        }
    }

    /** The server's own words: a JSON {@code error} (Prometheus, Loki), a JSON string or {@code message}
     * (Alertmanager) or plain text, trimmed. */
    private static String detail(JsonNode json, byte[] body) {
        String text;
        if (json != null && json.hasNonNull("error")) {
            text = json.path("error").asText();
        } else if (json != null && json.isTextual()) {
            text = json.asText();
        } else if (json != null && json.hasNonNull("message")) {
            text = json.path("message").asText();
        } else {
            text = new String(body, StandardCharsets.UTF_8).strip();
        }
        return text.length() > 500 ? text.substring(0, 500) + "…" : text;
    }

    private ConnectorException transportError(IOException e) {
        for (Throwable c = e; c != null; c = c.getCause()) {
            if (c instanceof SSLException || c instanceof java.security.cert.CertificateException) {
                return new ConnectorException(ErrorCode.CONNECTOR_TLS_VERIFY_FAILED, "TLS with " + target.host() + ":"
                        + target.port() + " failed (check the target's verify_tls, tls_ca_pin, tls_server_name; "
                        + "extras scheme http for a server without TLS)", Map.of("exception_message",
                        String.valueOf(c.getMessage())), null);
            }
            if (c instanceof HttpTimeoutException) {
                return new ConnectorException(ErrorCode.CONNECTOR_TIMEOUT, target.product() + " did not answer within "
                        + ctx.timeout().toMillis() + " ms", Map.of(), null);
            }
        }
        String why = e instanceof ConnectException ? "connection refused" : e.getClass().getSimpleName()
                + (e.getMessage() == null ? "" : ": " + e.getMessage());
        return new ConnectorException(ErrorCode.CONNECTOR_UNREACHABLE, "cannot reach " + target.host() + ":"
                + target.port() + " (" + why + ")", Map.of(), null);
    }

    public static String queryString(Map<String, List<String>> query) {
        if (query.isEmpty()) {
            return "";
        }
        StringJoiner j = new StringJoiner("&", "?", "");
        query.forEach((k, values) -> values.forEach(v -> j.add(URLEncoder.encode(k, StandardCharsets.UTF_8) + "="
                + URLEncoder.encode(v, StandardCharsets.UTF_8))));
        return j.toString();
    }
}
