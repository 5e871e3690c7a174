package dev.backplane.cli.common;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Range checks of numeric flags, as usage errors before anything is sent. A flag declares its range
 * once, as its label ({@code @Option(names = "--limit", paramLabel = "1..500")}), which is also what
 * {@code --help} shows; {@link #checkRanges} enforces every such label, so a verb writes no check.
 */
public final class Limits {

    private static final Pattern RANGE = Pattern.compile("(-?\\d+)\\.\\.(-?\\d+)");

    private Limits() {
    }

    public static void check(Integer value, int min, int max, String flag) {
        if (value != null && (value < min || value > max)) {
            throw CliException.usage(flag + " must be " + min + ".." + max + ", got " + value);
        }
    }

    /** Checks every numeric option or parameter of {@code spec} whose label is a range {@code min..max}. */
    public static void checkRanges(CommandSpec spec) {
        for (ArgSpec arg : spec.args()) {
            Matcher range = RANGE.matcher(arg.paramLabel());
            if (range.matches() && arg.getValue() instanceof Number value) {
                long min = Long.parseLong(range.group(1));
                long max = Long.parseLong(range.group(2));
                if (value.longValue() < min || value.longValue() > max) {
                    String name = arg instanceof OptionSpec o ? o.longestName() : arg.paramLabel();
                    throw CliException.usage(name + " must be " + min + ".." + max + ", got " + value);
                }
            }
        }
    }
}
