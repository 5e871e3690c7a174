package dev.backplane.kernel.errors;

import java.util.Map;

/**
 * One of SPEC's error codes and its {@link ErrorKind}. Each capability declares its codes as an enum
 * implementing this ({@code TargetErrors}, {@code EventErrors}, ...; request-level codes shared by all
 * are {@link CommonErrors}) and raises them with {@code throw TargetErrors.TARGET_NOT_FOUND.error(...)}.
 */
public interface ErrorCode {

    /** The stable wire code ({@code error} and {@code extras.error_code}). */
    String code();

    ErrorKind kind();

    default DomainException error(String message) {
        return new DomainException(kind(), code(), message);
    }

    default DomainException error(String message, Map<String, ?> extras) {
        return new DomainException(kind(), code(), message, extras);
    }
}
