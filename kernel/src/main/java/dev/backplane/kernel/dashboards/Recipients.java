package dev.backplane.kernel.dashboards;

import jakarta.mail.internet.AddressException;
import jakarta.mail.internet.InternetAddress;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A dashboard's notify_email: comma-separated plain addresses ({@code local@domain}, no display names),
 * trimmed, lower-cased and deduplicated; at most {@link #MAX} of them. {@link #plain} is what approval
 * notifications check their recipients with too.
 */
public final class Recipients {

    static final int MAX = 50;
    static final int MAX_CHARS = 4096;

    private Recipients() {
    }

    static List<String> parse(String text) {
        if (text.length() > MAX_CHARS) {
            throw Dashboards.invalid("notify_email is longer than " + MAX_CHARS + " characters", "notify_email");
        }
        Set<String> out = new LinkedHashSet<>();
        for (String raw : text.split(",", -1)) {
            String a = raw.strip().toLowerCase(Locale.ROOT);
            if (a.isEmpty()) {
                continue;
            }
            if (!plain(a)) {
                throw Dashboards.invalid("notify_email entry '" + raw.strip() + "' is not a plain address local@domain",
                        "notify_email");
            }
            out.add(a);
        }
        if (out.isEmpty()) {
            throw Dashboards.invalid("notify_email names no address (leave it unset to send no mail)", "notify_email");
        }
        if (out.size() > MAX) {
            throw Dashboards.invalid("notify_email names more than " + MAX + " addresses", "notify_email");
        }
        return new ArrayList<>(out);
    }

    /** Whether {@code a} (lower-cased, trimmed) is one plain address {@code local@domain}, no display name. */
    public static boolean plain(String a) {
        int at = a.indexOf('@');
        if (at < 1 || at != a.lastIndexOf('@') || at == a.length() - 1 || !a.substring(at + 1).contains(".")
                || a.chars().anyMatch(ch -> ch <= ' ' || ch == '<' || ch == '>' || ch == '"' || ch == '(' || ch == ')'
                || ch == ';' || ch == '\\' || ch > 126)) {
            return false;
        }
        try {
            InternetAddress parsed = new InternetAddress(a, true);
            return parsed.getPersonal() == null && parsed.getAddress().equals(a);
        } catch (AddressException e) {
            return false;
        }
    }
}
