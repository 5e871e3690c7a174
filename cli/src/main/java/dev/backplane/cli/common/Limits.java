package dev.backplane.cli.common;

/** Range checks of numeric flags, as usage errors before anything is sent. */
public final class Limits {

    private Limits() {
    }

    public static void check(Integer value, int min, int max, String flag) {
        if (value != null && (value < min || value > max)) {
            throw CliException.usage(flag + " must be " + min + ".." + max + ", got " + value);
        }
    }
}
