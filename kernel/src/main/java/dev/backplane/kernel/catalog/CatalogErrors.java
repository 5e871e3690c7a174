package dev.backplane.kernel.catalog;

import dev.backplane.kernel.errors.ErrorCode;
import dev.backplane.kernel.errors.ErrorKind;

/** The error codes the catalog capability raises (SPEC's codes; the kind decides the HTTP status). */
public enum CatalogErrors implements ErrorCode {
    CONNECTOR_EXISTS("connector_exists", ErrorKind.CONFLICT),
    CONNECTOR_NOT_INGESTED("connector_not_ingested", ErrorKind.NOT_FOUND),
    INVALID_AUTH_SCHEME("invalid_auth_scheme", ErrorKind.INVALID),
    INVALID_GROUP_EDIT("invalid_group_edit", ErrorKind.INVALID),
    INVALID_OVERRIDE("invalid_override", ErrorKind.INVALID),
    INVALID_TRANSITION("invalid_transition", ErrorKind.CONFLICT),
    SPEC_TOO_LARGE("spec_too_large", ErrorKind.INVALID),
    SPEC_UNREADABLE("spec_unreadable", ErrorKind.INVALID),
    TENANT_FORBIDDEN("tenant_forbidden", ErrorKind.FORBIDDEN),
    UNKNOWN_CATALOG_ENTRY("unknown_catalog_entry", ErrorKind.NOT_FOUND),
    UNKNOWN_CONNECTOR("unknown_connector", ErrorKind.NOT_FOUND),
    UNKNOWN_GROUP("unknown_group", ErrorKind.NOT_FOUND),
    UNKNOWN_OPERATION("unknown_operation", ErrorKind.NOT_FOUND);

    private final String code;
    private final ErrorKind kind;

    CatalogErrors(String code, ErrorKind kind) {
        this.code = code;
        this.kind = kind;
    }

    @Override
    public String code() {
        return code;
    }

    @Override
    public ErrorKind kind() {
        return kind;
    }
}
