package dev.backplane.kernel.topology;

import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.targets.Target;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Discovery of a DNS server (BIND 9 over SSH, {@code dns-ssh-9.x}) through its read operations, each a governed
 * call through the dispatch pipeline: the zones it serves (primary or secondary) belong-to the server's target; an
 * A or AAAA record resolves-to its address (a {@code host} node), a CNAME resolves-to the record it names, and each
 * record belongs-to its zone. Zone and record nodes are named by their DNS names (no trailing dot), not by the
 * server: a primary and its secondaries serve the same zone. A server beyond a cap ({@value #MAX_ZONES} zones,
 * {@value #MAX_RECORDS} records) is refused with {@code refresh_failed} rather than read in part.
 */
final class DnsDiscovery extends Discovery {

    static final String CONNECTOR = "dns-ssh-9.x";
    static final int MAX_ZONES = 200;
    static final int MAX_RECORDS = 20_000;
    private static final Set<String> SERVED = Set.of("primary", "master", "secondary", "slave");

    DnsDiscovery(DiscoveryCalls calls) {
        super("bind", calls);
    }

    @Override
    List<Seen> observe(Caller system, Target target) {
        Seen.Node server = new Seen.Node(Vocabulary.TARGET, target.name());
        List<Seen> out = new ArrayList<>();
        int records = 0;
        List<String> zones = calls.rows(system, calls.call(system, CONNECTOR, target.name(), "dns.zone.list", Map.of()))
                .stream().filter(z -> SERVED.contains(String.valueOf(z.get("type")).toLowerCase(Locale.ROOT)))
                .map(z -> name(z.get("zone"))).filter(z -> !z.isEmpty()).distinct().toList();
        if (zones.size() > MAX_ZONES) {
            throw DiscoveryCalls.capHit(target.name(), "MAX_ZONES", MAX_ZONES, zones.size() + " zones");
        }
        for (String zone : zones) {
            Seen.Node zoneNode = new Seen.Node("dns-zone", zone);
            out.add(new Seen(zoneNode, "belongs-to", server));
            for (Map<?, ?> r : calls.rows(system, calls.call(system, CONNECTOR, target.name(), "dns.zone.show",
                    Map.of("name", zone)))) {
                String type = String.valueOf(r.get("type")).toUpperCase(Locale.ROOT);
                String name = name(r.get("name"));
                String data = String.valueOf(r.get("data")).strip();
                Seen.Node record = new Seen.Node("dns-record", name);
                switch (type) {
                    case "A", "AAAA" -> out.add(new Seen(record, "resolves-to", new Seen.Node("host", data)));
                    case "CNAME" -> out.add(new Seen(record, "resolves-to", new Seen.Node("dns-record", name(data))));
                    default -> {
                        continue;
                    }
                }
                out.add(new Seen(record, "belongs-to", zoneNode));
                if (++records > MAX_RECORDS) {
                    throw DiscoveryCalls.capHit(target.name(), "MAX_RECORDS", MAX_RECORDS, "the A, AAAA and CNAME "
                            + "records of its zones");
                }
            }
        }
        return out;
    }

    /** A DNS name as a node name: lower case, without the root's trailing dot. */
    private static String name(Object fqdn) {
        String n = String.valueOf(fqdn).strip().toLowerCase(Locale.ROOT);
        return n.endsWith(".") ? n.substring(0, n.length() - 1) : n;
    }
}
