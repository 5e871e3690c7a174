package dev.backplane.kernel.console;

import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.http.Authenticator;
import java.util.Optional;
import java.util.UUID;

/**
 * A console session checked again with the identity provider: its refresh token is redeemed and the fresh access
 * token goes through the REST authenticator, so the session gets exactly the rights a REST call with that token
 * would have now. An access token the authenticator refuses (its tenant claims are gone, a former platform_admin
 * acting on another tenant) ends the session like a refused refresh.
 */
public final class IdpRevalidation implements ConsoleSessions.Revalidation {

    private final OidcLogin oidc;
    private final Authenticator authenticator;

    public IdpRevalidation(OidcLogin oidc, Authenticator authenticator) {
        this.oidc = oidc;
        this.authenticator = authenticator;
    }

    @Override
    public ConsoleSessions.Refreshed refresh(String refreshToken, UUID actingTenant) throws OidcLogin.RefreshRefused {
        OidcLogin.Tokens tokens = oidc.refresh(refreshToken);
        try {
            return new ConsoleSessions.Refreshed(authenticator.authenticate(tokens.accessToken(),
                    Optional.of(actingTenant.toString())), tokens.refreshToken(), tokens.idToken());
        } catch (DomainException refused) {
            throw new OidcLogin.RefreshRefused("the fresh access token was refused: " + refused.code());
        }
    }
}
