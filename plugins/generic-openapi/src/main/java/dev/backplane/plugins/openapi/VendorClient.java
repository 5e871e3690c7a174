package dev.backplane.plugins.openapi;

import static java.util.Objects.requireNonNull;

import dev.backplane.plugin.api.ConnectorContext;
import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.ErrorCode;
import dev.backplane.plugin.api.TargetSpec;
import dev.backplane.plugins.http.TransportFailure;
import dev.backplane.plugins.http.VendorHttp;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Sends requests to one target with the kernel's HTTP client (whose TLS follows the target's settings)
 * and turns transport failures into error codes.
 */
final class VendorClient {

    /** Bodies larger than this are refused rather than buffered. */
    static final int MAX_BODY_BYTES = 64 * 1024 * 1024;

    private static final Pattern PLACEHOLDER = Pattern.compile("\\{([A-Za-z_][A-Za-z0-9_]*)}");

    private final ConnectorContext ctx;
    private final TargetSpec target;
    private final Scrubber scrubber;
    private final String origin;

    VendorClient(ConnectorContext ctx, TargetSpec target, Scrubber scrubber) {
        this.ctx = requireNonNull(ctx, "ctx is null");
        this.target = requireNonNull(target, "target is null");
        this.scrubber = requireNonNull(scrubber, "scrubber is null");
        this.origin = VendorHttp.origin(target);
    }

    String origin() {
        return origin;
    }

    /**
     * Where client credentials are sent to mint a token: the target's own {@code token_url} extra (the
     * tenant chose it when registering the target), else the connector's {@code token_url} setting,
     * which must name the target's own host — whoever ingested the connector cannot have a tenant's
     * client secret sent to a host of their choosing. Empty when neither is set ({@code token_path}).
     *
     * @throws ConnectorException {@code connector_error} when the connector's token_url names another host
     */
    Optional<URI> tokenUrl(Optional<String> connectorSetting) {
        Object chosen = target.extras().get("token_url");
        if (chosen != null && !chosen.toString().isBlank()) {
            return Optional.of(httpUri(chosen.toString(), "the target's token_url extra"));
        }
        if (connectorSetting.isEmpty()) {
            return Optional.empty();
        }
        URI uri = httpUri(connectorSetting.get(), "the connector's token_url");
        String host = uri.getHost() == null ? "" : uri.getHost().replaceAll("^\\[|]$", "");
        String targetHost = target.host().replaceAll("^\\[|]$", "");
        if (!host.equalsIgnoreCase(targetHost)) {
            throw new ConnectorException(ErrorCode.CONNECTOR_ERROR, "the connector's token_url names host '" + host
                    + "', not the target's host '" + targetHost + "'; client credentials are only sent to the target "
                    + "itself. If the token endpoint really lives elsewhere, set it on the target: extras.token_url");
        }
        return Optional.of(uri);
    }

    private static URI httpUri(String text, String what) {
        try {
            URI uri = URI.create(text.strip());
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if ((scheme.equals("http") || scheme.equals("https")) && uri.getHost() != null) {
                return uri;
            }
        } catch (IllegalArgumentException e) {
            // reported below
        }
        throw new ConnectorException(ErrorCode.CONNECTOR_ERROR, what + " is not an absolute http(s) URL");
    }

    /**
     * The login path with each {@code {name}} replaced by the target's extra of that name, percent-encoded as
     * one path segment: a vendor whose login URL names the tenant's organisation (VCF Automation's
     * {@code /tm/oauth/tenant/{org}/token}) is ingested once and each target says which organisation it is.
     *
     * @throws ConnectorException {@code connector_error} naming the extra when the target lacks it
     */
    String loginPath(String template) {
        Matcher m = PLACEHOLDER.matcher(template);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            Object value = target.extras().get(m.group(1));
            String text = value == null ? "" : value.toString().strip();
            if (text.isEmpty() || text.equals(".") || text.equals("..")) {
                throw new ConnectorException(ErrorCode.CONNECTOR_ERROR, "the login path " + template + " needs the "
                        + "target's extras." + m.group(1) + " (svc targets add ... --extras " + m.group(1) + "=<value>)"
                        + (text.isEmpty() ? "" : "; '" + text + "' is not a path segment"));
            }
            m.appendReplacement(out, Matcher.quoteReplacement(WireEncoding.percent(text)));
        }
        return m.appendTail(out).toString();
    }

    /**
     * The target's values of the extras a login path names, so two targets on one host that log in to
     * different organisations never share a cached session; empty when the path names none.
     */
    String loginScope(String template) {
        StringBuilder out = new StringBuilder();
        Matcher m = PLACEHOLDER.matcher(template);
        while (m.find()) {
            out.append(m.group(1)).append('=').append(target.extras().getOrDefault(m.group(1), "")).append(';');
        }
        return out.toString();
    }

    /** A request to {@code pathAndQuery} on the target, with the call's timeout. */
    HttpRequest.Builder request(String pathAndQuery) {
        return request(URI.create(origin + pathAndQuery));
    }

    HttpRequest.Builder request(URI uri) {
        return HttpRequest.newBuilder(uri).timeout(ctx.timeout());
    }

    /**
     * Sends {@code request}; any HTTP answer is returned.
     *
     * @throws ConnectorException {@code connector_tls_verify_failed}, {@code connector_timeout},
     *     {@code connector_unreachable} or {@code connector_error} when no answer came
     */
    VendorResponse send(HttpRequest request) {
        if (ctx.cancelled()) {
            throw new ConnectorException(ErrorCode.CONNECTOR_ERROR, "the call was cancelled before it was sent");
        }
        try {
            HttpResponse<InputStream> r = ctx.httpClient().send(request, HttpResponse.BodyHandlers.ofInputStream());
            try (InputStream in = r.body()) {
                byte[] body = in.readNBytes(MAX_BODY_BYTES + 1);
                if (body.length > MAX_BODY_BYTES) {
                    throw new ConnectorException(ErrorCode.CONNECTOR_ERROR, "the vendor's answer to " + request.method()
                            + " " + request.uri().getPath() + " is larger than " + MAX_BODY_BYTES + " bytes");
                }
                return new VendorResponse(r.statusCode(), r.headers(), body);
            }
        } catch (IOException e) {
            throw failure(request, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ConnectorException(ErrorCode.CONNECTOR_TIMEOUT, "the call was interrupted while waiting for "
                    + where(), Map.of(), null);
        }
    }

    private ConnectorException failure(HttpRequest request, IOException e) {
        return TransportFailure.of(e, target, request.method() + " " + request.uri().getPath(), ctx.timeout(),
                scrubber::scrub);
    }

    private String where() {
        return TransportFailure.where(target);
    }
}
