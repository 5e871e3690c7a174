package dev.backplane.kernel.egress;

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

    private final List<AddressSpace.Cidr> allowedRanges;
    private final List<String> allowedHosts;
    private final Dns dns;

    /**
     * @param allowlist CIDR ranges and host names ({@code *.example.com} matches subdomains)
     * @param dns the resolver
     */
    public SsrfGuard(List<String> allowlist, Dns dns) {
        List<AddressSpace.Cidr> ranges = new ArrayList<>();
        List<String> hosts = new ArrayList<>();
        for (String entry : allowlist) {
            String e = entry.trim().toLowerCase(Locale.ROOT);
            if (e.isEmpty()) {
                continue;
            }
            if (e.contains("/")) {
                ranges.add(AddressSpace.cidr(e));
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
        return AddressSpace.literal(host);
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
        Optional<String> why = AddressSpace.forbiddenReason(address);
        if (why.isEmpty() || allowedRanges.stream().anyMatch(r -> r.contains(address.getAddress()))) {
            return;
        }
        String h = host.trim().toLowerCase(Locale.ROOT);
        if (hostAllowed(h.startsWith("[") && h.endsWith("]") ? h.substring(1, h.length() - 1) : h)) {
            if (!AddressSpace.neverByName(address)) {
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
        return AddressSpace.forbiddenReason(address);
    }
}
