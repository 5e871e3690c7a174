package dev.backplane.kernel.dashboards;

import dev.backplane.kernel.errors.ErrorCode;
import dev.backplane.kernel.errors.ErrorKind;

/** The error codes the dashboards capability raises (SPEC's codes; the kind decides the HTTP status). */
public enum DashboardErrors implements ErrorCode {
    DASHBOARD_NOT_FOUND("dashboard_not_found", ErrorKind.NOT_FOUND),
    DASHBOARD_EXISTS("dashboard_exists", ErrorKind.CONFLICT),
    INVALID_DASHBOARD("invalid_dashboard", ErrorKind.INVALID),
    UNKNOWN_SENSOR("unknown_sensor", ErrorKind.INVALID),
    UNKNOWN_AGENT("unknown_agent", ErrorKind.INVALID);

    private final String code;
    private final ErrorKind kind;

    DashboardErrors(String code, ErrorKind kind) {
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
