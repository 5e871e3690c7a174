package dev.backplane.plugins.firewall;

import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.ErrorCode;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The rules every firewall parameter passes before it reaches an nft script: families, table, chain
 * and set names, addresses and prefixes, ports, handles, verdicts and comments. The operations' JSON
 * Schemas use the same patterns. Anything that would need quoting is refused with
 * {@code invalid_params}.
 */
final class FwNames {

    static final List<String> FAMILIES = List.of("ip", "ip6", "inet", "arp", "bridge", "netdev");
    static final List<String> VERDICTS = List.of("accept", "drop", "reject");
    static final List<String> PROTOCOLS = List.of("tcp", "udp");
    /** A table, chain or set name. */
    static final String IDENTIFIER = "^[A-Za-z][A-Za-z0-9_]{0,63}$";
    /** An IPv4 or IPv6 address, optionally with a prefix length (checked further in code). */
    static final String ADDRESS = "^[0-9A-Fa-f:.]{2,39}(/[0-9]{1,3})?$";
    /** A comment: one word. */
    static final String COMMENT = "^[A-Za-z0-9_.:=+/@,][A-Za-z0-9_.:=+/@,-]{0,127}$";
    private static final Pattern IDENTIFIER_RE = Pattern.compile(IDENTIFIER);
    private static final Pattern ADDRESS_RE = Pattern.compile(ADDRESS);
    private static final Pattern COMMENT_RE = Pattern.compile(COMMENT);
    private static final Pattern IPV4 = Pattern.compile("((25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])\\.){3}"
            + "(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])");

    private FwNames() {
    }

    static String family(Map<String, Object> p) {
        String f = text(p, "family");
        if (!FAMILIES.contains(f)) {
            throw invalid("family", "one of " + FAMILIES);
        }
        return f;
    }

    static String identifier(Map<String, Object> p, String name) {
        String v = text(p, name);
        if (!IDENTIFIER_RE.matcher(v).matches()) {
            throw invalid(name, "a name of letters, digits and '_' starting with a letter");
        }
        return v;
    }

    static String oneOf(Map<String, Object> p, String name, List<String> allowed) {
        String v = text(p, name);
        if (!allowed.contains(v)) {
            throw invalid(name, "one of " + allowed);
        }
        return v;
    }

    static String comment(Map<String, Object> p) {
        String v = text(p, "comment");
        if (!COMMENT_RE.matcher(v).matches()) {
            throw invalid("comment", "one word of letters, digits and _ . : = + / @ , - (not starting with -)");
        }
        return v;
    }

    static int port(Map<String, Object> p, String name) {
        return (int) number(p, name, 1, 65535);
    }

    static long handle(Map<String, Object> p) {
        return number(p, "handle", 1, Integer.MAX_VALUE);
    }

    private static long number(Map<String, Object> p, String name, long min, long max) {
        Object v = p.get(name);
        if (!(v instanceof Number n) || n.doubleValue() != n.longValue() || n.longValue() < min || n.longValue() > max) {
            throw invalid(name, "a whole number in " + min + ".." + max);
        }
        return n.longValue();
    }

    /** An address or prefix, as nft prints it back (lower-case, prefix length only when given). */
    static Prefix address(String name, Object value) {
        if (!(value instanceof String s) || !ADDRESS_RE.matcher(s).matches()) {
            throw invalid(name, "an IPv4 or IPv6 address or prefix (a.b.c.d/len)");
        }
        String[] parts = s.split("/", 2);
        boolean v4 = IPV4.matcher(parts[0]).matches();
        if (!v4 && parts[0].indexOf(':') < 0) {
            throw invalid(name, "an IPv4 or IPv6 address or prefix (a.b.c.d/len)");
        }
        try {
            InetAddress a = InetAddress.getByName(parts[0]); // a literal: no lookup
            int max = a.getAddress().length * 8;
            int len = parts.length == 2 ? Integer.parseInt(parts[1]) : max;
            if (len > max) {
                throw invalid(name, "a prefix length of at most " + max);
            }
            return new Prefix(a, len);
        } catch (UnknownHostException | NumberFormatException e) {
            throw invalid(name, "an IPv4 or IPv6 address or prefix (a.b.c.d/len)");
        }
    }

    /**
     * An address with a prefix length.
     *
     * @param address the address
     * @param length the prefix length (32 or 128 for one address)
     */
    record Prefix(InetAddress address, int length) {

        boolean v4() {
            return address.getAddress().length == 4;
        }

        /** True when {@code other} lies inside this prefix. */
        boolean contains(InetAddress other) {
            byte[] a = address.getAddress();
            byte[] b = other.getAddress();
            if (a.length != b.length) {
                return false;
            }
            BigInteger mask = BigInteger.ONE.shiftLeft(a.length * 8).subtract(BigInteger.ONE)
                    .xor(BigInteger.ONE.shiftLeft(a.length * 8 - length).subtract(BigInteger.ONE));
            return new BigInteger(1, a).and(mask).equals(new BigInteger(1, b).and(mask));
        }

        /** The nft spelling: {@code 192.0.2.1} or {@code 198.51.100.0/24}. */
        String text() {
            String host = address.getHostAddress();
            int max = address.getAddress().length * 8;
            return length == max ? host : host + "/" + length;
        }
    }

    static String text(Map<String, Object> p, String name) {
        Object v = p.get(name);
        if (!(v instanceof String s)) {
            throw new ConnectorException(ErrorCode.INVALID_PARAMS, "params." + name + " must be a string");
        }
        return s;
    }

    static ConnectorException invalid(String param, String expected) {
        return new ConnectorException(ErrorCode.INVALID_PARAMS, "params." + param + " must be " + expected);
    }
}
