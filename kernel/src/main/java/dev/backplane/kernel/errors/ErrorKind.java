package dev.backplane.kernel.errors;

/**
 * What kind of failure a domain error is, in the product's terms. Services choose a kind; only
 * {@code http.ErrorMapping} turns it into an HTTP status and only {@code mcp} into a JSON-RPC error.
 */
public enum ErrorKind {
    /** The request itself is malformed (unparseable body, bad query string). */
    BAD_REQUEST,
    /** No valid credentials. */
    UNAUTHENTICATED,
    /** Authenticated, but the role, grant or policy refuses it. */
    FORBIDDEN,
    /** The thing named does not exist for this caller (or is someone else's: indistinguishable). */
    NOT_FOUND,
    /** The resource exists, but not with this method. */
    METHOD_NOT_ALLOWED,
    /** The request collides with the current state (duplicate name, wrong state for the transition). */
    CONFLICT,
    /** The body is larger than the route accepts. */
    TOO_LARGE,
    /** Well-formed but invalid content (a field out of range, an unknown value). */
    INVALID,
    /** Too many requests; try again later. */
    RATE_LIMITED,
    /** A fault of ours. */
    INTERNAL,
    /** The capability exists in SPEC but not in this build or backend. */
    NOT_IMPLEMENTED,
    /** A system we called (a target, a secret store, a retrieval backend) failed. */
    UPSTREAM_FAILED,
    /** We cannot serve it right now (draining, a dependency down). */
    UNAVAILABLE
}
