package dev.backplane.kernel.egress;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Refuses destinations inside private or special-purpose address space: loopback, RFC 1918, CGNAT,
 * link-local (including the 169.254.169.254 metadata address), IPv6 ULA and link-local, multicast,
 * reserved, documentation and unspecified ranges, and IPv6 forms that embed an IPv4 address
 * (mapped, compatible, NAT64, 6to4, Teredo). Host names are resolved and every address is checked;
 * a name that does not resolve is refused. The deploy's allowlist ({@code SVC_TARGET_SSRF_ALLOWLIST})
 * names CIDR ranges and host names that may be reached anyway. An allowlisted CIDR range admits exactly
 * its addresses; an allowlisted host name admits the private ranges it resolves to (RFC 1918, ULA, CGNAT
 * ...) but never loopback, link-local (the cloud metadata address), unspecified, multicast or broadcast
 * addresses, which only a CIDR entry can admit: whoever can point that name elsewhere (its DNS, a
 * rebinding answer) must not reach the kernel's own host or the metadata service through it.
 */
public final class SsrfGuard {

    /** Resolves a host name; replaceable in tests. */
    @FunctionalInterface
    public interface Dns {
        InetAddress[] resolve(String host) throws UnknownHostException;
    }

    /** A refused destination, with a message that names the fix. */
    public static final class Refused extends RuntimeException {
        private final String host;

        Refused(String host, String message) {
            super(message);
            this.host = host;
        }

        public String host() {
            return host;
        }
    }

    private record Cidr(byte[] network, int prefix, String text) {
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
    private static final java.util.regex.Pattern IPV4_LITERAL =
            java.util.regex.Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})");
    private static final java.util.regex.Pattern IPV6_LITERAL = java.util.regex.Pattern.compile("\\[?([0-9a-fA-F:.]+)]?");

    private static final List<Cidr> FORBIDDEN = cidrs(
            "0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12",
            "192.0.0.0/24", "192.0.2.0/24", "192.88.99.0/24", "192.168.0.0/16", "198.18.0.0/15", "198.51.100.0/24",
            "203.0.113.0/24", "224.0.0.0/4", "240.0.0.0/4",
            "::/128", "::1/128", "100::/64", "2001:db8::/32", "fc00::/7", "fe80::/10", "fec0::/10", "ff00::/8",
            "64:ff9b:1::/48");

    /** What a host-name allowlist entry never admits (only a CIDR entry can). */
    private static final List<Cidr> NEVER_BY_NAME = cidrs("0.0.0.0/8", "127.0.0.0/8", "169.254.0.0/16",
            "224.0.0.0/4", "255.255.255.255/32", "::/128", "::1/128", "fe80::/10", "ff00::/8");

    private final List<Cidr> allowedRanges;
    private final List<String> allowedHosts;
    private final Dns dns;

    /**
     * @param allowlist CIDR ranges and host names ({@code *.example.com} matches subdomains)
     * @param dns the resolver
     */
    public SsrfGuard(List<String> allowlist, Dns dns) {
        List<Cidr> ranges = new ArrayList<>();
        List<String> hosts = new ArrayList<>();
        for (String entry : allowlist) {
            String e = entry.trim().toLowerCase(Locale.ROOT);
            if (e.isEmpty()) {
                continue;
            }
            if (e.contains("/")) {
                ranges.add(cidr(e));
            } else {
                hosts.add(e);
            }
        }
        this.allowedRanges = List.copyOf(ranges);
        this.allowedHosts = List.copyOf(hosts);
        this.dns = dns;
    }

    public static SsrfGuard fromSetting(String allowlist) {
        return new SsrfGuard(Arrays.asList(allowlist.split("[,\\s]+")), InetAddress::getAllByName);
    }

    /** Resolves {@code host} and returns its addresses if every one may be reached; throws {@link Refused} otherwise. */
    public List<InetAddress> check(String host) {
        String h = host.trim().toLowerCase(Locale.ROOT);
        if (h.startsWith("[") && h.endsWith("]")) {
            h = h.substring(1, h.length() - 1);
        }
        InetAddress[] addresses;
        try {
            addresses = dns.resolve(h);
        } catch (UnknownHostException e) {
            throw new Refused(host, "host '" + host + "' does not resolve; a name that does not resolve is refused");
        }
        if (addresses == null || addresses.length == 0) {
            throw new Refused(host, "host '" + host + "' does not resolve; a name that does not resolve is refused");
        }
        for (InetAddress a : addresses) {
            checkAddress(host, a);
        }
        return List.of(addresses);
    }

    /**
     * The address {@code host} names when it is an IP literal (dotted-quad IPv4, or IPv6 without a zone, bare
     * or bracketed as in a URI), read without any name resolution; empty for a host name or anything else.
     */
    public static Optional<InetAddress> literal(String host) {
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

    /**
     * Whether {@code host} is an IP literal this guard admits. Such a destination needs no name resolution:
     * the address checked here is the address a client dials, so nothing can change between check and connect.
     */
    public boolean admitsLiteral(String host) {
        Optional<InetAddress> address = literal(host);
        if (address.isEmpty()) {
            return false;
        }
        try {
            checkAddress(host, address.get());
            return true;
        } catch (Refused e) {
            return false;
        }
    }

    /** Checks one address about to be dialled (the connect-time check). */
    public void checkAddress(String host, InetAddress address) {
        Optional<String> why = forbiddenReason(address);
        if (why.isEmpty() || allowedRanges.stream().anyMatch(r -> r.contains(address.getAddress()))) {
            return;
        }
        String h = host.trim().toLowerCase(Locale.ROOT);
        if (hostAllowed(h.startsWith("[") && h.endsWith("]") ? h.substring(1, h.length() - 1) : h)) {
            if (!neverByName(address)) {
                return;
            }
            throw new Refused(host, "destination " + host + " (" + address.getHostAddress() + ") is " + why.get()
                    + "; an allowlisted host name never admits loopback, link-local (metadata), unspecified, "
                    + "multicast or broadcast addresses — only a CIDR entry in the deploy's target SSRF allowlist "
                    + "(environment variable SVC_TARGET_SSRF_ALLOWLIST) can");
        }
        throw new Refused(host, "destination " + host + " (" + address.getHostAddress() + ") is " + why.get()
                + "; to allow it, add its range or host name to the deploy's target SSRF allowlist "
                + "(environment variable SVC_TARGET_SSRF_ALLOWLIST)");
    }

    private static boolean neverByName(InetAddress address) {
        byte[] b = address.getAddress();
        byte[] v4 = address instanceof Inet6Address ? embeddedIpv4(b).orElse(b) : b;
        return NEVER_BY_NAME.stream().anyMatch(c -> c.contains(v4) || c.contains(b));
    }

    private boolean hostAllowed(String host) {
        for (String allowed : allowedHosts) {
            if (allowed.startsWith("*.") ? host.endsWith(allowed.substring(1)) : host.equals(allowed)) {
                return true;
            }
        }
        return false;
    }

    /** Why an address is internal or special-purpose, or empty when it is an ordinary public address. */
    public static Optional<String> forbiddenReason(InetAddress address) {
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
        return Arrays.stream(texts).map(SsrfGuard::cidr).toList();
    }

    private static Cidr cidr(String text) {
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
