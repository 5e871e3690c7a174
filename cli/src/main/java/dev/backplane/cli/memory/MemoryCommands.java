package dev.backplane.cli.memory;

import dev.backplane.cli.common.CliException;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.List;

/** {@code svc remember / recall / list / promote}: scoped memory. */
public final class MemoryCommands {

    static final List<String> SCOPES = List.of("user", "user-tenant", "user-target", "tenant", "target");

    private MemoryCommands() {
    }

    /** 7d, 36h, 30m, 2w or an ISO 8601 duration (P7D, PT12H). */
    static Duration ttl(String text) {
        var m = java.util.regex.Pattern.compile("(\\d{1,6})([smhdw])").matcher(text.trim());
        if (m.matches()) {
            long n = Long.parseLong(m.group(1));
            return switch (m.group(2)) {
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                case "d" -> Duration.ofDays(n);
                default -> Duration.ofDays(7 * n);
            };
        }
        try {
            return Duration.parse(text.trim());
        } catch (DateTimeParseException e) {
            throw CliException.usage("--ttl takes 30m, 36h, 7d, 2w or an ISO 8601 duration such as P7D, got '" + text + "'");
        }
    }

    static String[] scopeSlug(String ref) {
        int slash = ref.indexOf('/');
        if (slash <= 0 || !SCOPES.contains(ref.substring(0, slash))) {
            throw CliException.usage("name the entry as <scope>/<slug> with scope one of " + SCOPES + ", got '" + ref + "'");
        }
        return new String[] {ref.substring(0, slash), ref.substring(slash + 1)};
    }

    static String snippet(String body) {
        String flat = body.replaceAll("\\s+", " ").strip();
        return flat.length() <= 60 ? flat : flat.substring(0, 57) + "...";
    }
}
