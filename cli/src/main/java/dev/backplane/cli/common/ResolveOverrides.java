package dev.backplane.cli.common;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.net.spi.InetAddressResolver;
import java.net.spi.InetAddressResolverProvider;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * {@code --resolve host:port:ip}, as in curl: the named host resolves to the given address in this
 * process, while TLS still verifies the certificate against the host name. Installed as the JDK's
 * address resolver (registered in META-INF/services); names without an override go to the system.
 */
public final class ResolveOverrides extends InetAddressResolverProvider {

    private static final Map<String, InetAddress> OVERRIDES = new ConcurrentHashMap<>();

    /** A parsed {@code host:port:ip} entry. */
    public record Entry(String host, int port, InetAddress address) {
    }

    /** Parses {@code host:port:ip} (an IPv6 address may be bracketed). */
    public static Entry parse(String text) {
        int first = text.indexOf(':');
        int second = first < 0 ? -1 : text.indexOf(':', first + 1);
        if (first <= 0 || second < 0) {
            throw CliException.usage("--resolve wants host:port:ip, got '" + text + "'");
        }
        String host = text.substring(0, first).toLowerCase(Locale.ROOT);
        String portText = text.substring(first + 1, second);
        String ip = text.substring(second + 1);
        if (ip.startsWith("[") && ip.endsWith("]")) {
            ip = ip.substring(1, ip.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(portText);
        } catch (NumberFormatException e) {
            throw CliException.usage("--resolve port must be a number, got '" + portText + "' in '" + text + "'");
        }
        if (port < 1 || port > 65535) {
            throw CliException.usage("--resolve port must be 1..65535 in '" + text + "'");
        }
        String literal = ip;
        InetAddress address = IpLiterals.parse(literal).orElseThrow(() ->
                CliException.usage("--resolve address must be an IP address, got '" + literal + "' in '" + text + "'"));
        return new Entry(host, port, address);
    }

    /** Applies entries for this process. */
    public static void install(List<Entry> entries) {
        entries.forEach(e -> OVERRIDES.put(e.host(), e.address()));
    }

    @Override
    public InetAddressResolver get(Configuration configuration) {
        InetAddressResolver system = configuration.builtinResolver();
        return new InetAddressResolver() {
            @Override
            public Stream<InetAddress> lookupByName(String host, LookupPolicy policy) throws UnknownHostException {
                InetAddress override = OVERRIDES.get(host.toLowerCase(Locale.ROOT));
                if (override != null) {
                    return Stream.of(InetAddress.getByAddress(host, override.getAddress()));
                }
                return system.lookupByName(host, policy);
            }

            @Override
            public String lookupByAddress(byte[] addr) throws UnknownHostException {
                return system.lookupByAddress(addr);
            }
        };
    }

    @Override
    public String name() {
        return "svc --resolve overrides";
    }
}
