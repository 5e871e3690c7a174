package dev.backplane.kernel.dispatch;

import dev.backplane.kernel.errors.ErrorCode;
import dev.backplane.kernel.errors.ErrorKind;

/** The error codes the dispatch capability raises (SPEC's codes; the kind decides the HTTP status). */
public enum DispatchErrors implements ErrorCode {
    CONNECTOR_PRODUCT_MISMATCH("connector_product_mismatch", ErrorKind.INVALID),
    RUN_NOT_FOUND("run_not_found", ErrorKind.NOT_FOUND),
    RUN_FINISHED("run_finished", ErrorKind.CONFLICT);

    private final String code;
    private final ErrorKind kind;

    DispatchErrors(String code, ErrorKind kind) {
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
