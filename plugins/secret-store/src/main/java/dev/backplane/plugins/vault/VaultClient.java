package dev.backplane.plugins.vault;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.backplane.plugin.api.ConnectorContext;
import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.Credential;
import dev.backplane.plugin.api.ErrorCode;
import dev.backplane.plugin.api.TargetSpec;
import dev.backplane.plugins.http.TransportFailure;
import dev.backplane.plugins.http.VendorHttp;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Sends one request to the target's Vault with the kernel's HTTP client and the credential's token
 * ({@code X-Vault-Token}; {@code X-Vault-Namespace} when the target sets {@code extras.namespace}), and
 * turns transport failures into error codes. Every message it builds is free of the token and of the
 * values the call writes: Vault's own error strings pass through {@link Redactor} first.
 */
final class VaultClient {

    static final String TOKEN_FIELD = "token";
    static final ObjectMapper JSON = new ObjectMapper();
    /** Answers larger than this are refused rather than buffered (lists of millions of keys, say). */
    static final int MAX_BODY_BYTES = 16 * 1024 * 1024;
    private static final Pattern NAMESPACE = Pattern.compile(VaultParams.PATH);
    private static final Pattern TOKEN = Pattern.compile("[\\x21-\\x7e]{1,4096}");

    /** Vault's answer: its status and JSON body (missing when the body is empty, e.g. 204). */
    record Answer(int status, JsonNode body) {
        boolean ok() {
            return status >= 200 && status < 300;
        }

        /** Vault's {@code errors} strings, joined. */
        String errors() {
            JsonNode errors = body.path("errors");
            if (!errors.isArray() || errors.isEmpty()) {
                return "";
            }
            return java.util.stream.StreamSupport.stream(errors.spliterator(), false).map(JsonNode::asText)
                    .map(String::strip).collect(Collectors.joining("; "));
        }
    }

    private final ConnectorContext ctx;
    private final TargetSpec target;
    private final Credential credential;
    private final String origin;
    private final Optional<String> namespace;

    VaultClient(ConnectorContext ctx, TargetSpec target, Credential credential) {
        this.ctx = ctx;
        this.target = target;
        this.credential = credential;
        this.origin = VendorHttp.origin(target);
        this.namespace = namespace(target);
    }

    /** The Vault Enterprise namespace the target names ({@code extras.namespace}), if any. */
    static Optional<String> namespace(TargetSpec target) {
        Object extra = target.extras().get("namespace");
        if (extra == null || extra.toString().isBlank()) {
            return Optional.empty();
        }
        String ns = extra.toString().strip();
        if (!NAMESPACE.matcher(ns).matches()) {
            throw new ConnectorException(ErrorCode.CONNECTOR_ERROR, "the target's extras.namespace is not a Vault "
                    + "namespace path (segments of letters, digits, '_', '.', '-', '@' joined by '/')");
        }
        return Optional.of(ns);
    }

    Optional<String> namespace() {
        return namespace;
    }

    /** The call's token; the same for every request of the session. */
    String token() {
        String token = credential.field(TOKEN_FIELD);
        if (!TOKEN.matcher(token).matches()) {
            throw new ConnectorException(ErrorCode.CONNECTOR_ERROR, "KvCredentialsReadError (field 'token' is not a "
                    + "Vault token: it must be 1..4096 visible ASCII characters)");
        }
        return token;
    }

    /** {@code values} and, when the credential has one, the token: what a redactor of this session's calls hides. */
    List<String> withToken(List<String> values) {
        List<String> out = new ArrayList<>(values);
        if (credential.has(TOKEN_FIELD)) {
            out.add(credential.field(TOKEN_FIELD));
        }
        return out;
    }

    /**
     * Sends {@code request}; any HTTP answer is returned. {@code authenticated} false sends no token
     * ({@code sys/health}, {@code sys/seal-status} are unauthenticated in Vault).
     */
    Answer send(VaultRequest request, boolean authenticated, Redactor redactor) {
        if (ctx.cancelled()) {
            throw new ConnectorException(ErrorCode.CONNECTOR_ERROR, "the call was cancelled before it was sent");
        }
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(origin + request.pathAndQuery()))
                .timeout(ctx.timeout()).header("Accept", "application/json");
        if (authenticated) {
            b.header("X-Vault-Token", token());
        }
        namespace.ifPresent(ns -> b.header("X-Vault-Namespace", ns));
        if (request.body().isPresent()) {
            b.header("Content-Type", request.contentType());
            b.method(request.method(), HttpRequest.BodyPublishers.ofByteArray(json(request.body().get())));
        } else {
            b.method(request.method(), HttpRequest.BodyPublishers.noBody());
        }
        try {
            HttpResponse<InputStream> r = ctx.httpClient().send(b.build(), HttpResponse.BodyHandlers.ofInputStream());
            try (InputStream in = r.body()) {
                byte[] body = in.readNBytes(MAX_BODY_BYTES + 1);
                if (body.length > MAX_BODY_BYTES) {
                    throw new ConnectorException(ErrorCode.CONNECTOR_ERROR, "Vault's answer to " + request.describe()
                            + " is larger than " + MAX_BODY_BYTES + " bytes");
                }
                return new Answer(r.statusCode(), parse(body, r.statusCode(), request));
            }
        } catch (IOException e) {
            throw failure(request, e, redactor);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ConnectorException(ErrorCode.CONNECTOR_TIMEOUT, "the call was interrupted while waiting for "
                    + where());
        }
    }

    private static byte[] json(Object body) {
        try {
            return JSON.writeValueAsBytes(body);
        } catch (IOException e) {
            throw new ConnectorException(ErrorCode.INVALID_PARAMS, "the request body cannot be written as JSON");
        }
    }

    private static JsonNode parse(byte[] body, int status, VaultRequest request) {
        if (body.length == 0) {
            return MissingNode.getInstance();
        }
        try {
            return JSON.readTree(body);
        } catch (IOException e) {
            throw new ConnectorException(ErrorCode.CONNECTOR_ERROR, "Vault answered " + request.describe()
                    + " with HTTP " + status + " and a body that is not JSON (is this a Vault server?)",
                    Map.of("http_status", status), null);
        }
    }

    private ConnectorException failure(VaultRequest request, IOException e, Redactor redactor) {
        return TransportFailure.of(e, target, request.describe(), ctx.timeout(), redactor::scrub);
    }

    String where() {
        return TransportFailure.where(target);
    }
}
