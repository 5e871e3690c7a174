package dev.backplane.kernel.sensors;

import dev.backplane.kernel.errors.ErrorCode;
import dev.backplane.kernel.errors.ErrorKind;

/** The error codes the sensors capability raises (SPEC's codes; the kind decides the HTTP status). */
public enum SensorErrors implements ErrorCode {
    SENSOR_NOT_FOUND("sensor_not_found", ErrorKind.NOT_FOUND),
    SENSOR_EXISTS("sensor_exists", ErrorKind.CONFLICT),
    INVALID_SENSOR("invalid_sensor", ErrorKind.INVALID),
    INVALID_ASSERTION("invalid_assertion", ErrorKind.INVALID),
    NOT_A_READ_OPERATION("not_a_read_operation", ErrorKind.INVALID),
    INVALID_PARAMS("invalid_params", ErrorKind.INVALID);

    private final String code;
    private final ErrorKind kind;

    SensorErrors(String code, ErrorKind kind) {
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
