package dev.backplane.kernel.sensors;

import dev.backplane.kernel.errors.ErrorCode;
import dev.backplane.kernel.errors.ErrorKind;

/** The error codes the sensors capability raises (SPEC's codes; the kind decides the HTTP status). */
public enum SensorErrors implements ErrorCode {
    SENSOR_NOT_FOUND(ErrorKind.NOT_FOUND),
    SENSOR_EXISTS(ErrorKind.CONFLICT),
    INVALID_SENSOR(ErrorKind.INVALID),
    INVALID_ASSERTION(ErrorKind.INVALID),
    NOT_A_READ_OPERATION(ErrorKind.INVALID),
    INVALID_PARAMS(ErrorKind.INVALID);

    private final ErrorKind kind;

    SensorErrors(ErrorKind kind) {
        this.kind = kind;
    }

    @Override
    public ErrorKind kind() {
        return kind;
    }
}
