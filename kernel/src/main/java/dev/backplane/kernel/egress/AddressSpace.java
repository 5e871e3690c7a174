package dev.backplane.kernel.egress;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The address space the {@link SsrfGuard} reasons about: which addresses are private or special-purpose
 * (and why), which ones a host-name allowlist entry never admits, IPv4 addresses hidden in IPv6 forms, IP
 * literals read without any name resolution, and CIDR ranges. Pure functions of the address; no lookups.
 */
final class AddressSpace {

    /** A CIDR range: one of the ranges below or a range entry of the deploy's allowlist. */
    record Cidr(byte[] network, int prefix, String text) {
        boolean contains(byte[] address) {
            if (address.length != network.length) {
                return false;
            }
            int full = prefix / 8;
            for (int i = 0; i < full; i++) {
                if (address[i] != network[i]) {
                    return false;
                }
            }
            int rest = prefix % 8;
            if (rest == 0) {
                return true;
            }
            int mask = (0xff << (8 - rest)) & 0xff;
            return (address[full] & mask) == (network[full] & mask);
        }
    }

    // before the ranges below, which are parsed with them
    private static final Pattern IPV4_LITERAL = Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})");
    private static final Pattern IPV6_LITERAL = Pattern.compile("\\[?([0-9a-fA-F:.]+)]?");

    private static final List<Cidr> FORBIDDEN = cidrs(
            "0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12",
            "192.0.0.0/24", "192.0.2.0/24", "192.88.99.0/24", "192.168.0.0/16", "198.18.0.0/15", "198.51.100.0/24",
            "203.0.113.0/24", "224.0.0.0/4", "240.0.0.0/4",
            "::/128", "::1/128", "100::/64", "2001:db8::/32", "fc00::/7", "fe80::/10", "fec0::/10", "ff00::/8",
            "64:ff9b:1::/48");

    /** What a host-name allowlist entry never admits (only a CIDR entry can). */
    private static final List<Cidr> NEVER_BY_NAME = cidrs("0.0.0.0/8", "127.0.0.0/8", "169.254.0.0/16",
            "224.0.0.0/4", "255.255.255.255/32", "::/128", "::1/128", "fe80::/10", "ff00::/8");

    private AddressSpace() {
    }

    /**
     * The address {@code host} names when it is an IP literal (dotted-quad IPv4, or IPv6 without a zone, bare
     * or bracketed as in a URI), read without any name resolution; empty for a host name or anything else.
     */
    static Optional<InetAddress> literal(String host) {
        if (host == null) {
            return Optional.empty();
        }
        try {
            var v4 = IPV4_LITERAL.matcher(host);
            if (v4.matches()) {
                byte[] b = new byte[4];
                for (int i = 0; i < 4; i++) {
                    int octet = Integer.parseInt(v4.group(i + 1));
                    if (octet > 255) {
                        return Optional.empty();
                    }
                    b[i] = (byte) octet;
                }
                return Optional.of(InetAddress.getByAddress(b));
            }
            var v6 = IPV6_LITERAL.matcher(host);
            if (v6.matches() && v6.group(1).indexOf(':') >= 0 && host.startsWith("[") == host.endsWith("]")) {
                // a text with a colon is parsed as an IPv6 literal, never looked up
                return Optional.of(InetAddress.getByName(v6.group(1)));
            }
        } catch (UnknownHostException e) {
            return Optional.empty();
        }
        return Optional.empty();
    }

    /** Whether a host-name allowlist entry may never admit {@code address} (only a CIDR entry can). */
    static boolean neverByName(InetAddress address) {
        byte[] b = address.getAddress();
        byte[] v4 = address instanceof Inet6Address ? embeddedIpv4(b).orElse(b) : b;
        return NEVER_BY_NAME.stream().anyMatch(c -> c.contains(v4) || c.contains(b));
    }

    /** Why an address is internal or special-purpose, or empty when it is an ordinary public address. */
    static Optional<String> forbiddenReason(InetAddress address) {
        byte[] b = address.getAddress();
        if (address instanceof Inet6Address) {
            Optional<byte[]> embedded = embeddedIpv4(b);
            if (embedded.isPresent()) {
                try {
                    return forbiddenReason(InetAddress.getByAddress(embedded.get()))
                            .map(r -> r + " (embedded in an IPv6 address)");
                } catch (UnknownHostException e) {
                    return Optional.of("an unparseable embedded IPv4 address");
                }
            }
            if (b[0] == 0x20 && b[1] == 0x01 && b[2] == 0 && b[3] == 0) {
                return Optional.of("a Teredo address (hides an IPv4 destination)");
            }
        }
        for (Cidr c : FORBIDDEN) {
            if (c.contains(b)) {
                return Optional.of("in the private or special-purpose range " + c.text());
            }
        }
        if (address instanceof Inet4Address && Arrays.equals(b, new byte[] {-1, -1, -1, -1})) {
            return Optional.of("the broadcast address");
        }
        return Optional.empty();
    }

    /**
     * IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d), SIIT IPv4-translated
     * (::ffff:0:a.b.c.d), NAT64 (64:ff9b::/96) and 6to4 (2002::/16) forms.
     */
    static Optional<byte[]> embeddedIpv4(byte[] b) {
        if (allZero(b, 0, 8) && b[8] == -1 && b[9] == -1 && b[10] == 0 && b[11] == 0) {
            return Optional.of(Arrays.copyOfRange(b, 12, 16));
        }
        boolean zeros10 = true;
        for (int i = 0; i < 10; i++) {
            zeros10 &= b[i] == 0;
        }
        if (zeros10 && ((b[10] == -1 && b[11] == -1) || (b[10] == 0 && b[11] == 0 && !(allZero(b, 12, 15) && (b[15] & 0xff) <= 1)))) {
            return Optional.of(Arrays.copyOfRange(b, 12, 16));
        }
        if (b[0] == 0 && b[1] == 0x64 && b[2] == (byte) 0xff && b[3] == (byte) 0x9b && allZero(b, 4, 12)) {
            return Optional.of(Arrays.copyOfRange(b, 12, 16));
        }
        if (b[0] == 0x20 && b[1] == 0x02) {
            return Optional.of(Arrays.copyOfRange(b, 2, 6));
        }
        return Optional.empty();
    }

    private static boolean allZero(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (b[i] != 0) {
                return false;
            }
        }
        return true;
    }

    private static List<Cidr> cidrs(String... texts) {
        return Arrays.stream(texts).map(AddressSpace::cidr).toList();
    }

    /** A CIDR range from its text; an {@link IllegalArgumentException} names what is wrong with it. */
    static Cidr cidr(String text) {
        String[] parts = text.split("/", 2);
        try {
            byte[] network = literal(parts[0]).orElseThrow(() -> new NumberFormatException(parts[0])).getAddress();
            int prefix = Integer.parseInt(parts[1]);
            if (prefix < 0 || prefix > network.length * 8) {
                throw new IllegalArgumentException("bad prefix length in " + text);
            }
            return new Cidr(network, prefix, text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a CIDR range: '" + text + "'");
        }
    }
}
