package dev.backplane.cli.admin;

import java.util.Optional;
import java.util.OptionalInt;

/**
 * What {@code svc admin idp bootstrap-clients} makes true in the realm.
 *
 * @param realm the realm (never master)
 * @param backplaneAudience audience the CLI's tokens carry (the kernel's identity.audience)
 * @param cliClientId the CLI's public client (device-code flow)
 * @param cliOfflineIdleSeconds when present, offline access is allowed with this idle bound
 * @param mcpClientId the MCP public client (browser flow with PKCE)
 * @param mcpRedirectUri the MCP client's redirect URI
 * @param mcpWebOrigin the MCP client's web origin
 * @param mcpResourceUri the MCP resource audience (no trailing slash)
 * @param user the first user to provision, if any
 * @param readerClient a confidential client whose service account reads the realm through the admin API
 *                     (the credential of a backplane target for this Keycloak), if wanted
 * @param setupClient a confidential client whose service account is a tenant_admin of {@code setupTenantId}
 *                    on the backplane (for scripted setup), if wanted
 * @param setupTenantId the setup client's tenant (required with {@code setupClient})
 * @param consoleClientId the web console's public client (authorization code + PKCE)
 * @param consoleUrl the backplane's public URL: the console's redirect URI is {@code <consoleUrl>/ui/callback}
 */
record BootstrapSpec(String realm, String backplaneAudience, String cliClientId, OptionalInt cliOfflineIdleSeconds,
                     String mcpClientId, String mcpRedirectUri, String mcpWebOrigin, String mcpResourceUri,
                     Optional<UserSpec> user, Optional<ServiceClient> readerClient, Optional<ServiceClient> setupClient,
                     Optional<String> setupTenantId, String consoleClientId, String consoleUrl) {

    /**
     * A confidential client with a service account (client-credentials grant).
     *
     * @param clientId the client id
     * @param secret its client secret (never printed)
     */
    record ServiceClient(String clientId, String secret) {
        @Override
        public String toString() {
            return "ServiceClient[" + clientId + ", secret=****]";
        }
    }

    /**
     * The user to provision.
     *
     * @param username login name
     * @param email optional email
     * @param tenantId tenant uuid; empty keeps the existing one or mints a new one
     * @param tenantRole tenant role; empty keeps the existing one or uses tenant_admin
     * @param groupName optional group to create and add the user to
     * @param password initial password; empty generates one (printed once) for a new user
     */
    record UserSpec(String username, Optional<String> email, Optional<String> tenantId, Optional<String> tenantRole,
                    Optional<String> groupName, Optional<String> password) {
        @Override
        public String toString() {
            return "UserSpec[" + username + ", tenant=" + tenantId + ", role=" + tenantRole + ", password=****]";
        }
    }
}
