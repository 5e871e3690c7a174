package dev.backplane.kernel.util;

import dev.backplane.kernel.errors.CommonErrors;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Time arguments of the audit verbs: a shorthand age (30m, 24h, 7d, 2w) or an ISO 8601 instant. */
public final class TimeArg {

    private static final Pattern AGE = Pattern.compile("(\\d{1,6})([smhdw])");

    private TimeArg() {
    }

    public static Instant parse(String text, String field) {
        return dev.backplane.kernel.util.Times.inRange(parseUnbounded(text, field), field, "invalid_time");
    }

    private static Instant parseUnbounded(String text, String field) {
        String t = text.trim();
        Matcher m = AGE.matcher(t);
        if (m.matches()) {
            long n = Long.parseLong(m.group(1));
            Duration d = switch (m.group(2)) {
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                case "d" -> Duration.ofDays(n);
                default -> Duration.ofDays(7 * n);
            };
            return Instant.now().minus(d);
        }
        return Times.iso(t).orElseThrow(() -> CommonErrors.INVALID_TIME.error(field + " must be an age like 30m, "
                + "24h, 7d, 2w or an ISO 8601 time, got '" + text + "'", Map.of("field", field)));
    }
}
