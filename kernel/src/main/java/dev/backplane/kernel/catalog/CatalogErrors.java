package dev.backplane.kernel.catalog;

import dev.backplane.kernel.errors.ErrorCode;
import dev.backplane.kernel.errors.ErrorKind;

/** The error codes the catalog capability raises (SPEC's codes; the kind decides the HTTP status). */
public enum CatalogErrors implements ErrorCode {
    CONNECTOR_EXISTS(ErrorKind.CONFLICT),
    CONNECTOR_NOT_INGESTED(ErrorKind.NOT_FOUND),
    INVALID_AUTH_SCHEME(ErrorKind.INVALID),
    INVALID_GROUP_EDIT(ErrorKind.INVALID),
    INVALID_OVERRIDE(ErrorKind.INVALID),
    INVALID_TRANSITION(ErrorKind.CONFLICT),
    SPEC_TOO_LARGE(ErrorKind.INVALID),
    SPEC_UNREADABLE(ErrorKind.INVALID),
    TENANT_FORBIDDEN(ErrorKind.FORBIDDEN),
    UNKNOWN_CATALOG_ENTRY(ErrorKind.NOT_FOUND),
    UNKNOWN_CONNECTOR(ErrorKind.NOT_FOUND),
    UNKNOWN_GROUP(ErrorKind.NOT_FOUND),
    UNKNOWN_OPERATION(ErrorKind.NOT_FOUND);

    private final ErrorKind kind;

    CatalogErrors(ErrorKind kind) {
        this.kind = kind;
    }

    @Override
    public ErrorKind kind() {
        return kind;
    }
}
