package dev.backplane.plugins.dns;

import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.ErrorCode;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The rules every DNS parameter passes before it reaches a command: zone and record names, record
 * types, TTLs and record data per type. The same patterns are the operations' JSON Schema, so the
 * kernel refuses bad input first; these checks are the plugin's own, for any caller. Anything that
 * would need quoting (spaces, quotes, {@code ;}, {@code $}, newlines, ...) is refused with
 * {@code invalid_params}: TXT data is one word, CAA and other quoted types are not offered.
 */
final class DnsNames {

    private static final String LABEL = "[A-Za-z0-9_]([A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?";
    /** A zone: dotted labels, optional trailing dot. */
    static final String ZONE = "^" + LABEL + "(\\." + LABEL + ")*\\.?$";
    /**
     * A record name: {@code @}, or dotted labels; relative to the zone unless it ends in a dot. Wildcard
     * owners ({@code *}) are not offered: the read-back could not query them as a word.
     */
    static final String NAME = "^(@|" + LABEL + "(\\." + LABEL + ")*\\.?)$";
    /** Record data: one word of characters no shell or nsupdate treats specially. */
    static final String DATA = "^[A-Za-z0-9_.:=+/@,-]([A-Za-z0-9_.:=+/@, -]{0,252}[A-Za-z0-9_.:=+/@,-])?$";
    /** A filter for search: letters, digits and the name characters only. */
    static final String FILTER = "^[A-Za-z0-9_.:*@-]{1,253}$";
    /** The record types reads and writes accept. */
    static final List<String> TYPES = List.of("A", "AAAA", "CNAME", "MX", "NS", "PTR", "SRV", "TXT");
    static final int TTL_MAX = 604_800;
    private static final Set<String> HOST_DATA = Set.of("CNAME", "NS", "PTR");
    private static final Pattern ZONE_RE = Pattern.compile(ZONE);
    private static final Pattern NAME_RE = Pattern.compile(NAME);
    private static final Pattern HOST_RE = Pattern.compile("^" + LABEL + "(\\." + LABEL + ")*\\.?$");
    private static final Pattern IPV4 = Pattern.compile("((25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])\\.){3}"
            + "(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])");
    private static final Pattern IPV6 = Pattern.compile("[0-9A-Fa-f:]{2,39}");
    private static final Pattern WORD = Pattern.compile("[A-Za-z0-9_.:=+/@,-]{1,255}");
    private static final Pattern NUMBER = Pattern.compile("[0-9]{1,5}");

    private DnsNames() {
    }

    /** The zone, lower-case, without its trailing dot. */
    static String zone(String zone) {
        if (zone == null || zone.length() > 254 || !ZONE_RE.matcher(zone).matches()) {
            throw invalid("zone", "dotted DNS labels (letters, digits, '-', '_')");
        }
        String z = zone.toLowerCase(Locale.ROOT);
        return z.endsWith(".") ? z.substring(0, z.length() - 1) : z;
    }

    /** The absolute record name (trailing dot) of {@code name} in {@code zone}; it must lie inside the zone. */
    static String name(String name, String zone) {
        if (name == null || name.length() > 254 || !NAME_RE.matcher(name).matches()) {
            throw invalid("name", "'@' or dotted DNS labels (no wildcards)");
        }
        String n = name.toLowerCase(Locale.ROOT);
        String fqdn = n.equals("@") ? zone + "." : n.endsWith(".") ? n : n + "." + zone + ".";
        if (!fqdn.equals(zone + ".") && !fqdn.endsWith("." + zone + ".")) {
            throw invalid("name", "a name inside zone " + zone);
        }
        return fqdn;
    }

    /** The upper-case record type, one of {@link #TYPES}. */
    static String type(String type) {
        String t = type == null ? "" : type.toUpperCase(Locale.ROOT);
        if (!TYPES.contains(t)) {
            throw invalid("type", "one of " + TYPES);
        }
        return t;
    }

    static int ttl(Object ttl) {
        if (!(ttl instanceof Number n) || n.longValue() < 0 || n.longValue() > TTL_MAX || n.doubleValue() != n.longValue()) {
            throw invalid("ttl", "a whole number of seconds in 0.." + TTL_MAX);
        }
        return n.intValue();
    }

    /**
     * Record data in the canonical text form the server prints back (host names absolute, relative
     * ones taken inside the zone), checked per type.
     */
    static String data(String type, String data, String zone) {
        if (data == null || !Pattern.matches(DATA, data)) {
            throw invalid("data", "record data without quotes, ';', '$', '`' or line breaks");
        }
        String[] w = data.strip().split(" +");
        return switch (type) {
            case "A" -> one(w, IPV4.matcher(w[0]).matches(), "an IPv4 address");
            case "AAAA" -> ipv6(w);
            case "TXT" -> one(w, WORD.matcher(w[0]).matches(), "one word (no spaces or quotes)");
            case "MX" -> {
                require(w.length == 2 && NUMBER.matcher(w[0]).matches() && Integer.parseInt(w[0]) <= 65535,
                        "'<preference> <host>'");
                yield Integer.parseInt(w[0]) + " " + host(w[1], zone);
            }
            case "SRV" -> {
                require(w.length == 4 && NUMBER.matcher(w[0]).matches() && NUMBER.matcher(w[1]).matches()
                        && NUMBER.matcher(w[2]).matches() && Integer.parseInt(w[0]) <= 65535
                        && Integer.parseInt(w[1]) <= 65535 && Integer.parseInt(w[2]) <= 65535,
                        "'<priority> <weight> <port> <target>'");
                yield Integer.parseInt(w[0]) + " " + Integer.parseInt(w[1]) + " " + Integer.parseInt(w[2]) + " "
                        + host(w[3], zone);
            }
            default -> {
                require(HOST_DATA.contains(type) && w.length == 1, "one host name");
                yield host(w[0], zone);
            }
        };
    }

    private static String ipv6(String[] w) {
        require(w.length == 1 && IPV6.matcher(w[0]).matches() && ipv6Bytes(w[0]) != null, "an IPv6 address");
        return w[0].toLowerCase(Locale.ROOT);
    }

    /** The 16 bytes of an IPv6 literal, or null when it is not one; comparing bytes ignores zero compression. */
    static byte[] ipv6Bytes(String literal) {
        if (!IPV6.matcher(literal).matches() || literal.indexOf(':') < 0) {
            return null;
        }
        try {
            InetAddress a = InetAddress.getByName(literal); // a literal of hex digits and colons: no lookup
            return a instanceof java.net.Inet6Address ? a.getAddress() : null;
        } catch (UnknownHostException e) {
            return null;
        }
    }

    private static String host(String h, String zone) {
        require(HOST_RE.matcher(h).matches() && h.length() <= 254, "a host name");
        String lower = h.toLowerCase(Locale.ROOT);
        return lower.endsWith(".") ? lower : lower + "." + zone + ".";
    }

    private static String one(String[] w, boolean ok, String what) {
        require(w.length == 1 && ok, what);
        return w[0];
    }

    private static void require(boolean ok, String what) {
        if (!ok) {
            throw invalid("data", what);
        }
    }

    static ConnectorException invalid(String param, String expected) {
        return new ConnectorException(ErrorCode.INVALID_PARAMS, "params." + param + " must be " + expected);
    }
}
