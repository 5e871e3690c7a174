package dev.backplane.kernel.mcp;

import com.nimbusds.jwt.JWTClaimsSet;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.errors.ErrorKind;
import dev.backplane.kernel.http.Authenticator;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.TokenVerifier;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import java.net.URI;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The checks in front of every {@code /mcp} message before {@link McpRoutes} hands it on: its Origin, the bearer
 * token for the MCP audience and the scope the resource requires (with the {@code WWW-Authenticate} challenge a
 * refused token gets and the metadata it points to, RFC 9728), and the handshake revisions'
 * {@code MCP-Protocol-Version} header (the stateless revision's header rules are {@link StatelessRequests}').
 */
final class McpRequestChecks {

    static final String METADATA_PATH = "/.well-known/oauth-protected-resource";

    private final Authenticator authenticator;
    private final TokenVerifier verifier;
    private final McpRoutes.Settings settings;

    McpRequestChecks(Authenticator authenticator, TokenVerifier verifier, McpRoutes.Settings settings) {
        this.authenticator = authenticator;
        this.verifier = verifier;
        this.settings = settings;
    }

    /** The caller of a token for the MCP audience that carries the required scope; else a DomainException. */
    Caller authenticate(ServerRequest req) {
        Caller caller = authenticator.authenticate(req);
        requireScope(req);
        return caller;
    }

    /** The token's {@code sid} claim (the identity provider's login session), when it is a string. */
    Optional<String> sid(ServerRequest req) {
        return Optional.ofNullable(claims(req).getClaim("sid")).filter(String.class::isInstance).map(String.class::cast);
    }

    /** The verified claims of the request's bearer token (cached: the authenticator verified it a moment ago). */
    private JWTClaimsSet claims(ServerRequest req) {
        return verifier.verify(req.headers().first(HeaderNames.AUTHORIZATION).orElse("").substring(7).trim());
    }

    private void requireScope(ServerRequest req) {
        if (settings.requiredScope().isEmpty()) {
            return;
        }
        if (!scopeGranted(settings.requiredScope().get(), claims(req).getClaim("scope"))) {
            throw McpErrors.INSUFFICIENT_SCOPE.error("the token lacks the scope "
                    + settings.requiredScope().get() + " this MCP resource requires");
        }
    }

    /** Whether a token's {@code scope} claim (space-separated, possibly absent) grants {@code required}. */
    static boolean scopeGranted(String required, Object scopeClaim) {
        List<String> granted = scopeClaim == null ? List.of() : Arrays.asList(scopeClaim.toString().split(" "));
        return granted.contains(required);
    }

    /** An Origin the settings allow ({@code *} or listed), or a loopback one. */
    static boolean originAllowed(McpRoutes.Settings settings, String origin) {
        if (settings.allowedOrigins().contains("*") || settings.allowedOrigins().contains(origin)) {
            return true;
        }
        try {
            String host = URI.create(origin).getHost();
            return host != null && (host.equals("localhost") || host.equals("127.0.0.1") || host.equals("[::1]")
                    || host.equals("::1"));
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** The OAuth protected-resource metadata (RFC 9728) of {@code /mcp}. */
    static Map<String, Object> metadata(McpRoutes.Settings settings) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("resource", settings.resourceUri());
        m.put("authorization_servers", List.of(settings.issuer()));
        m.put("scopes_supported", settings.requiredScope().map(List::of).orElse(List.of()));
        m.put("bearer_methods_supported", List.of("header"));
        m.put("resource_name", "svc governance backplane (MCP)");
        return m;
    }

    /** Where the protected-resource metadata of {@code /mcp} is, built from the public URL. */
    static String metadataUrl(McpRoutes.Settings settings) {
        return settings.publicUrl().get().replaceAll("/+$", "") + METADATA_PATH + "/mcp";
    }

    /**
     * The {@code WWW-Authenticate} challenge for a refused token: where the metadata is for an unauthenticated
     * request (and {@code invalid_token} when it was one), the scope for an insufficient one; none otherwise.
     */
    static Optional<String> challenge(McpRoutes.Settings settings, DomainException e) {
        if (e.kind() == ErrorKind.UNAUTHENTICATED) {
            return Optional.of("Bearer resource_metadata=\"" + metadataUrl(settings) + "\""
                    + (e.code().equals("invalid_token") ? ", error=\"invalid_token\"" : ""));
        }
        if (e.code().equals("insufficient_scope")) {
            return Optional.of("Bearer error=\"insufficient_scope\", scope=\"" + settings.requiredScope().orElse("")
                    + "\", resource_metadata=\"" + metadataUrl(settings) + "\"");
        }
        return Optional.empty();
    }

    /**
     * The handshake revisions' header rule: 2025-06-18 and 2025-11-25 (basic/transports, "Protocol Version
     * Header"): an invalid or unsupported MCP-Protocol-Version is 400. The header names the version initialize
     * settled on, and initialize only settles on these two (a client asking for 2025-03-26 or older is answered
     * 2025-11-25); only a request without the header is taken as 2025-03-26, as that section allows.
     */
    static Optional<StatelessRequests.Refusal> handshakeVersion(Optional<String> versionHeader) {
        if (versionHeader.isEmpty() || McpServer.HANDSHAKE_VERSIONS.contains(versionHeader.get())) {
            return Optional.empty();
        }
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("supported", McpServer.ALL_VERSIONS);
        data.put("requested", versionHeader.get());
        return Optional.of(new StatelessRequests.Refusal(Status.BAD_REQUEST_400, McpServer.UNSUPPORTED_PROTOCOL_VERSION,
                "unsupported MCP-Protocol-Version " + versionHeader.get() + ": initialize settles on "
                        + String.join(" or ", McpServer.HANDSHAKE_VERSIONS) + "; " + McpServer.V2026_07_28
                        + " is spoken with the protocol version in each request's _meta", data));
    }
}
