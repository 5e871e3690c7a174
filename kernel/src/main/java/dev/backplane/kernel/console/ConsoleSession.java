package dev.backplane.kernel.console;

import static java.util.Objects.requireNonNull;

import dev.backplane.kernel.identity.Caller;

/**
 * A signed-in console user: the caller the login's access token verified to, and the token every
 * form of this session must echo (CSRF). {@code toString} leaves the CSRF token out.
 */
public record ConsoleSession(Caller caller, String csrfToken) {

    public ConsoleSession {
        requireNonNull(caller, "caller is null");
        requireNonNull(csrfToken, "csrfToken is null");
    }

    @Override
    public String toString() {
        return "ConsoleSession[" + caller.sub() + ", tenant=" + caller.tenantId() + ", csrf=****]";
    }
}
