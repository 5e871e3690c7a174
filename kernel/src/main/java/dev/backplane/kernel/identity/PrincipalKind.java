package dev.backplane.kernel.identity;

import java.util.Locale;

/**
 * Who is behind a token: a human operator (CLI or console), a human's MCP client session
 * ({@code user-agent}), a registered agent principal, or a service principal.
 */
public enum PrincipalKind {
    HUMAN,
    USER_AGENT,
    AGENT,
    SERVICE;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
