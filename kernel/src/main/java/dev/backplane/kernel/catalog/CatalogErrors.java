package dev.backplane.kernel.catalog;

import dev.backplane.kernel.errors.ErrorCode;
import dev.backplane.kernel.errors.ErrorKind;

/** The error codes the catalog capability raises (SPEC's codes; the kind decides the HTTP status). */
public enum CatalogErrors implements ErrorCode {
    /** Several enabled implementations fit a target equally well and nothing breaks the tie. */
    AMBIGUOUS_CONNECTOR(ErrorKind.CONFLICT),
    CONNECTOR_EXISTS(ErrorKind.CONFLICT),
    CONNECTOR_NOT_INGESTED(ErrorKind.NOT_FOUND),
    /** The named connector does not serve the target's product, and no enabled one that does offers the op. */
    CONNECTOR_PRODUCT_MISMATCH(ErrorKind.INVALID),
    INVALID_AUTH_SCHEME(ErrorKind.INVALID),
    INVALID_GROUP_EDIT(ErrorKind.INVALID),
    INVALID_OVERRIDE(ErrorKind.INVALID),
    INVALID_TRANSITION(ErrorKind.CONFLICT),
    /** No enabled implementation serves the target's product at its version with the requested operation. */
    NO_CONNECTOR(ErrorKind.NOT_IMPLEMENTED),
    PREFERENCE_NOT_FOUND(ErrorKind.NOT_FOUND),
    SPEC_TOO_LARGE(ErrorKind.INVALID),
    SPEC_UNREADABLE(ErrorKind.INVALID),
    TENANT_FORBIDDEN(ErrorKind.FORBIDDEN),
    UNKNOWN_CATALOG_ENTRY(ErrorKind.NOT_FOUND),
    UNKNOWN_CONNECTOR(ErrorKind.NOT_FOUND),
    UNKNOWN_GROUP(ErrorKind.NOT_FOUND),
    UNKNOWN_IMPL(ErrorKind.INVALID),
    UNKNOWN_OPERATION(ErrorKind.NOT_FOUND),
    UNKNOWN_PRODUCT(ErrorKind.INVALID);

    private final ErrorKind kind;

    CatalogErrors(ErrorKind kind) {
        this.kind = kind;
    }

    @Override
    public ErrorKind kind() {
        return kind;
    }
}
