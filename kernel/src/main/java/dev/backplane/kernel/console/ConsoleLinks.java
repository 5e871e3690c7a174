package dev.backplane.kernel.console;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/** Console URLs built from ids, each path segment percent-encoded (templates call these). */
public final class ConsoleLinks {

    private ConsoleLinks() {
    }

    public static String kbEntry(String slug) {
        return "/ui/kb/entry/" + segment(slug);
    }

    public static String connector(String connectorId) {
        return "/ui/connectors/" + segment(connectorId);
    }

    public static String operation(String connectorId, String opId) {
        return connector(connectorId) + "/operations/" + segment(opId);
    }

    static String segment(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /** {@code target} if it is a console page (a path under /ui), else the kb page: no open redirect. */
    static String localReturn(String target) {
        if (target != null && target.startsWith("/ui/") && !target.startsWith("//") && !target.contains("\\")
                && target.chars().noneMatch(ch -> ch < 0x21 || ch == 0x7f)) {
            return target;
        }
        return "/ui/kb";
    }
}
