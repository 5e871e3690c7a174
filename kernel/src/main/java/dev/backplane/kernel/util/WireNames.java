package dev.backplane.kernel.util;

import java.util.Locale;
import java.util.Optional;

/**
 * Enum constants as they appear on the wire and in the database: the constant's name in lower case with
 * dashes, so {@code GENERIC_JSON} is {@code generic-json} and {@code HMAC_SHA256} is {@code hmac-sha256}.
 * Renaming such a constant renames its stored value: a migration goes with it.
 */
public final class WireNames {

    private WireNames() {
    }

    public static String of(Enum<?> constant) {
        return constant.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The constant of {@code type} whose wire name is exactly {@code wire}, else empty. */
    public static <E extends Enum<E>> Optional<E> parse(Class<E> type, String wire) {
        for (E constant : type.getEnumConstants()) {
            if (of(constant).equals(wire)) {
                return Optional.of(constant);
            }
        }
        return Optional.empty();
    }
}
