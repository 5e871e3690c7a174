package dev.backplane.kernel.identity;

import java.util.Optional;
import java.util.UUID;

/** Tells the authenticator whether a token's OIDC client is a registered agent principal of the tenant. */
@FunctionalInterface
public interface PrincipalDirectory {

    /** The agent principal named {@code clientId} in {@code tenant}: empty when none, else whether it is revoked. */
    Optional<Boolean> agentRevoked(UUID tenant, String clientId);

    PrincipalDirectory NONE = (tenant, clientId) -> Optional.empty();
}
