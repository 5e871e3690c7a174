package dev.backplane.cli.common;

import java.util.UUID;

/** Arguments that must be a uuid: checked before anything is sent. */
public final class Uuids {

    private Uuids() {
    }

    /** {@code value} in canonical form, or a usage error that names {@code what} and echoes the value. */
    public static String checked(String value, String what) {
        try {
            return UUID.fromString(value).toString();
        } catch (IllegalArgumentException e) {
            throw CliException.usage(what + " must be a uuid, got '" + value + "'");
        }
    }
}
