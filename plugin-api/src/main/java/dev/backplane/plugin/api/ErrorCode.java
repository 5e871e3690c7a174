package dev.backplane.plugin.api;

import java.util.Locale;

/**
 * The error codes a connector reports. The code, not the message, is what REST, MCP and the CLI
 * show as {@code extras.error_code}; {@link #wireName()} is that spelling.
 */
public enum ErrorCode {
    /** The vendor rejected the credential when the session was established (HTTP 401). */
    CONNECTOR_AUTH_FAILED,
    /** The target's TLS chain or name did not verify. */
    CONNECTOR_TLS_VERIFY_FAILED,
    /**
     * The target's SSH server presented a host key other than the one pinned for the target, or the
     * target pins none (no trust on first use).
     *
     * @since 1.4
     */
    CONNECTOR_HOST_KEY_MISMATCH,
    /** The secret store refused to read the credential (usually staged at another path). */
    CONNECTOR_KV_FORBIDDEN,
    /** The call did not finish within its timeout. */
    CONNECTOR_TIMEOUT,
    /** The target could not be reached. */
    CONNECTOR_UNREACHABLE,
    /** The parameters are not valid for the operation. */
    INVALID_PARAMS,
    /** The operation is not known to this connector. */
    UNKNOWN_OPERATION,
    /** Any other failure of the connector or the target. */
    CONNECTOR_ERROR;

    /** The lower-case spelling used on every surface, for example {@code connector_auth_failed}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
