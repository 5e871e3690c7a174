package dev.backplane.kernel.http;

import com.nimbusds.jwt.JWTClaimsSet;
import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.errors.ErrorKind;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.PrincipalDirectory;
import dev.backplane.kernel.identity.PrincipalKind;
import dev.backplane.kernel.identity.Role;
import dev.backplane.kernel.identity.Subjects;
import dev.backplane.kernel.identity.TenantDirectory;
import dev.backplane.kernel.identity.TokenVerifier;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;
import java.text.ParseException;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Turns a request's bearer token into a {@link Caller}: verifies the token, reads the tenant claims
 * and applies the acting-tenant header ({@code X-Svc-Tenant}, set by the CLI's {@code --tenant}),
 * which only a platform_admin may point at another tenant.
 *
 * @param verifier verifies tokens for the audience of the routes this authenticator guards
 * @param tenants the tenant registry (acting-tenant checks, first-sight registration)
 * @param realm the value of {@code realm} in {@code WWW-Authenticate}
 * @param agentClientId the OIDC client whose tokens are a human's agent session (user-agent), if any
 * @param principals the agent principals (a revoked one is refused at once: the kill switch)
 */
public record Authenticator(TokenVerifier verifier, TenantDirectory tenants, String realm, Optional<String> agentClientId,
                            PrincipalDirectory principals) {

    public static final HeaderName TENANT_HEADER = HeaderNames.create("X-Svc-Tenant");

    public Caller authenticate(ServerRequest req) {
        String header = req.headers().first(HeaderNames.AUTHORIZATION)
                .orElseThrow(() -> unauthorized(null, "a bearer token is required"));
        if (!header.regionMatches(true, 0, "Bearer ", 0, 7) || header.length() <= 7) {
            throw unauthorized("invalid_request", "the Authorization header must be 'Bearer <token>'");
        }
        return authenticate(header.substring(7).trim(), req.headers().first(TENANT_HEADER));
    }

    /**
     * Verifies {@code token} and builds its caller exactly as for a bearer header: the console calls this
     * with the access token its login obtained, so its roles and tenants are those of REST.
     */
    public Caller authenticate(String token, Optional<String> actingTenant) {
        JWTClaimsSet claims;
        try {
            claims = verifier.verify(token);
        } catch (TokenVerifier.InvalidTokenException e) {
            throw unauthorized("invalid_token", e.getMessage());
        }
        Caller caller = toCaller(claims, actingTenant);
        tenants.ensureKnown(caller.homeTenantId());
        io.helidon.logging.common.HelidonMdc.set(RequestIds.TENANT_MDC_KEY, caller.tenantId().toString());
        tenants.rememberName(caller.sub(), caller.username());
        if (caller.clientId().isPresent()) {
            Optional<Boolean> revoked = principals.agentRevoked(caller.tenantId(), caller.clientId().get());
            if (revoked.orElse(false)) {
                throw CommonErrors.PRINCIPAL_REVOKED.error("agent principal '" + caller.clientId().get()
                        + "' has been revoked (kill switch); nothing it asks for is dispatched");
            }
            if (revoked.isPresent()) {
                caller = new Caller(caller.sub(), caller.username(), caller.homeTenantId(), caller.tenantId(),
                        caller.role(), false, PrincipalKind.AGENT, caller.clientId());
            }
        }
        return caller;
    }

    Caller toCaller(JWTClaimsSet claims, Optional<String> actingTenantHeader) {
        if (Subjects.reserved(claims.getSubject())) {
            // the backplane's own subjects (agent runs, sensors, triggers) are never a token's: review 3, S1
            throw unauthorized("invalid_token", "token subject is in the backplane's reserved namespace (svc-<kind>:)");
        }
        boolean platformAdmin = booleanClaim(claims, "platform_admin");
        Optional<UUID> home = stringClaim(claims, "tenant_id").map(v -> parseTenant(v, true));
        if (home.isEmpty() && !platformAdmin) {
            throw unauthorized("invalid_token", "token carries no tenant_id claim");
        }
        Role role = stringClaim(claims, "tenant_role").flatMap(Role::parse)
                .orElseGet(() -> {
                    if (platformAdmin) {
                        return Role.TENANT_ADMIN;
                    }
                    throw unauthorized("invalid_token", "token carries no valid tenant_role claim "
                            + "(tenant_admin, operator or read_only)");
                });
        UUID acting = home.orElse(null);
        if (actingTenantHeader.isPresent() && !actingTenantHeader.get().isBlank()) {
            UUID asked = parseTenant(actingTenantHeader.get(), false);
            if (!asked.equals(acting)) {
                if (!platformAdmin) {
                    throw CommonErrors.INSUFFICIENT_ROLE.error("only a platform_admin may act on another tenant")
                            .withExtras("required_role", "platform_admin");
                }
                if (!tenants.exists(asked)) {
                    throw CommonErrors.TENANT_NOT_FOUND.error("no tenant " + asked + " is known to this backplane");
                }
            }
            acting = asked;
        }
        if (acting == null) {
            throw CommonErrors.TENANT_REQUIRED.error("this platform_admin token has no tenant_id; name the tenant with --tenant");
        }
        Optional<String> azp = stringClaim(claims, "azp");
        PrincipalKind kind = kindOf(claims, azp);
        return new Caller(claims.getSubject(), stringClaim(claims, "preferred_username"), home, acting, role,
                platformAdmin, kind, azp);
    }

    private PrincipalKind kindOf(JWTClaimsSet claims, Optional<String> azp) {
        if (stringClaim(claims, "preferred_username").filter(u -> u.startsWith("service-account-")).isPresent()) {
            return PrincipalKind.SERVICE;
        }
        if (agentClientId.isPresent() && azp.equals(agentClientId)) {
            return PrincipalKind.USER_AGENT;
        }
        return PrincipalKind.HUMAN;
    }

    private UUID parseTenant(String value, boolean fromToken) {
        try {
            return UUID.fromString(value.trim());
        } catch (IllegalArgumentException e) {
            if (fromToken) {
                throw unauthorized("invalid_token", "tenant_id claim is not a uuid");
            }
            throw CommonErrors.INVALID_TENANT_HEADER.error("tenant must be a uuid, got '" + value + "'");
        }
    }

    private static Optional<String> stringClaim(JWTClaimsSet claims, String name) {
        Object v = claims.getClaim(name);
        if (v instanceof String s && !s.isBlank()) {
            return Optional.of(s);
        }
        if (v instanceof java.util.List<?> list && list.size() == 1 && list.getFirst() instanceof String s) {
            return Optional.of(s);
        }
        return Optional.empty();
    }

    private static boolean booleanClaim(JWTClaimsSet claims, String name) {
        try {
            Boolean b = claims.getBooleanClaim(name);
            return b != null && b;
        } catch (ParseException e) {
            return stringClaim(claims, name).map("true"::equalsIgnoreCase).orElse(false);
        }
    }

    private DomainException unauthorized(String error, String description) {
        StringBuilder challenge = new StringBuilder("Bearer realm=\"").append(realm).append('"');
        if (error != null) {
            challenge.append(", error=\"").append(error).append("\", error_description=\"")
                    .append(description.replace("\"", "'")).append('"');
        }
        return new DomainException(ErrorKind.UNAUTHENTICATED, error == null ? "unauthorized" : error, description)
                .withHeaders(Map.of("WWW-Authenticate", challenge.toString()));
    }
}
