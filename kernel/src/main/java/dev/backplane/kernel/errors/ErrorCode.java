package dev.backplane.kernel.errors;

import java.util.Locale;
import java.util.Map;

/**
 * One of SPEC's error codes and its {@link ErrorKind}. Each capability declares its codes as an enum
 * implementing this ({@code TargetErrors}, {@code EventErrors}, ...; request-level codes shared by all
 * are {@link CommonErrors}) and raises them with {@code throw TargetErrors.TARGET_NOT_FOUND.error(...)}.
 * A constant names its code ({@code TARGET_NOT_FOUND} is {@code target_not_found}), so an enum states
 * only each code's kind; the rare constant whose code differs from its name overrides {@link #code()}.
 */
public interface ErrorCode {

    /** The constant's name; an enum implements it. */
    String name();

    /** The stable wire code ({@code error} and {@code extras.error_code}): by default the name in lower case. */
    default String code() {
        return name().toLowerCase(Locale.ROOT);
    }

    ErrorKind kind();

    default DomainException error(String message) {
        return new DomainException(kind(), code(), message);
    }

    default DomainException error(String message, Map<String, ?> extras) {
        return new DomainException(kind(), code(), message, extras);
    }
}
