package dev.backplane.plugins.dns;

import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.ErrorCode;
import dev.backplane.plugins.ssh.SshTarget;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * {@code dns.record.search}: the zone's records (one transfer) filtered here by name part, type and
 * data part — the filters never reach a command line.
 */
record RecordSearch(String zone, Optional<String> nameContains, Optional<String> type, Optional<String> dataContains) {

    private static final Pattern FILTER = Pattern.compile(DnsNames.FILTER);

    static RecordSearch of(Map<String, Object> p) {
        return new RecordSearch(DnsNames.zone(RecordChange.text(p, "zone")), filter(p, "name_contains"),
                p.get("type") == null ? Optional.empty() : Optional.of(DnsNames.type(RecordChange.text(p, "type"))),
                filter(p, "data_contains"));
    }

    private static Optional<String> filter(Map<String, Object> p, String name) {
        if (p.get(name) == null) {
            return Optional.empty();
        }
        String v = RecordChange.text(p, name);
        if (!FILTER.matcher(v).matches()) {
            throw new ConnectorException(ErrorCode.INVALID_PARAMS, "params." + name
                    + " must be letters, digits and . : * @ _ -");
        }
        return Optional.of(v.toLowerCase(Locale.ROOT));
    }

    List<Map<String, Object>> apply(SshTarget ssh, BindTarget bind) {
        return ZoneRecords.rows(ssh.run(bind.transfer(zone)), "zone transfer of " + zone).stream()
                .filter(r -> nameContains.map(n -> r.get("name").toString().contains(n)).orElse(true))
                .filter(r -> type.map(t -> t.equals(r.get("type"))).orElse(true))
                .filter(r -> dataContains.map(d -> r.get("data").toString().toLowerCase(Locale.ROOT).contains(d)).orElse(true))
                .toList();
    }
}
