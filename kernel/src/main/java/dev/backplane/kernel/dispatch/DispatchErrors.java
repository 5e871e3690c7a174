package dev.backplane.kernel.dispatch;

import dev.backplane.kernel.errors.ErrorCode;
import dev.backplane.kernel.errors.ErrorKind;

/** The error codes the dispatch capability raises (SPEC's codes; the kind decides the HTTP status). */
public enum DispatchErrors implements ErrorCode {
    RUN_NOT_FOUND(ErrorKind.NOT_FOUND),
    RUN_FINISHED(ErrorKind.CONFLICT);

    private final ErrorKind kind;

    DispatchErrors(ErrorKind kind) {
        this.kind = kind;
    }

    @Override
    public ErrorKind kind() {
        return kind;
    }
}
