package dev.backplane.kernel.dashboards;

import dev.backplane.kernel.errors.ErrorCode;
import dev.backplane.kernel.errors.ErrorKind;

/** The error codes the dashboards capability raises (SPEC's codes; the kind decides the HTTP status). */
public enum DashboardErrors implements ErrorCode {
    DASHBOARD_NOT_FOUND(ErrorKind.NOT_FOUND),
    DASHBOARD_EXISTS(ErrorKind.CONFLICT),
    INVALID_DASHBOARD(ErrorKind.INVALID),
    UNKNOWN_SENSOR(ErrorKind.INVALID),
    UNKNOWN_AGENT(ErrorKind.INVALID);

    private final ErrorKind kind;

    DashboardErrors(ErrorKind kind) {
        this.kind = kind;
    }

    @Override
    public ErrorKind kind() {
        return kind;
    }
}
