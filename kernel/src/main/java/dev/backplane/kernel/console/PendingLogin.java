package dev.backplane.kernel.console;

import java.time.Instant;

/**
 * A sign-in started: the state sent to the identity provider and what the callback needs (PKCE verifier, nonce,
 * where to go back to). {@code toString} shows only the return path.
 */
public record PendingLogin(String state, String codeVerifier, String nonce, String returnTo, Instant expiresAt) {
    @Override
    public String toString() {
        return "PendingLogin[returnTo=" + returnTo + "]";
    }
}
