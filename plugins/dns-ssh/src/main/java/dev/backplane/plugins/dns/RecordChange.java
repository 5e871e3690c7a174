package dev.backplane.plugins.dns;

import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.ErrorCode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One validated record write: the nsupdate lines that make it (one update message, so it applies
 * whole or not at all) and the read-back rule that proves it took effect.
 *
 * @param kind add, update or delete
 * @param zone the zone, without trailing dot
 * @param fqdn the record's absolute name
 * @param type the record type
 * @param ttl the TTL (add and update)
 * @param data the canonical record data (required for add and update; optional for delete)
 */
record RecordChange(String kind, String zone, String fqdn, String type, Optional<Integer> ttl, Optional<String> data) {

    /** Validates the params of {@code dns.record.add|update|delete}. */
    static RecordChange of(String kind, Map<String, Object> params) {
        String zone = DnsNames.zone(text(params, "zone"));
        String fqdn = DnsNames.name(text(params, "name"), zone);
        String type = DnsNames.type(text(params, "type"));
        boolean delete = kind.equals("delete");
        Optional<Integer> ttl = delete ? Optional.empty() : Optional.of(DnsNames.ttl(params.get("ttl")));
        Optional<String> data = delete && params.get("data") == null ? Optional.empty()
                : Optional.of(DnsNames.data(type, text(params, "data"), zone));
        return new RecordChange(kind, zone, fqdn, type, ttl, data);
    }

    static String text(Map<String, Object> params, String name) {
        Object v = params.get(name);
        if (!(v instanceof String s)) {
            throw new ConnectorException(ErrorCode.INVALID_PARAMS, "params." + name + " must be a string");
        }
        return s;
    }

    /** The update lines (nsupdate syntax), without the server line and the final send. */
    List<String> script() {
        List<String> lines = new ArrayList<>();
        lines.add("zone " + zone + ".");
        String add = "update add " + fqdn + " " + ttl.orElse(0) + " IN " + type + " " + data.orElse("");
        switch (kind) {
            case "add" -> lines.add(add);
            case "update" -> {
                lines.add("update delete " + fqdn + " IN " + type);
                lines.add(add);
            }
            default -> lines.add(("update delete " + fqdn + " IN " + type + " " + data.orElse("")).strip());
        }
        return lines;
    }

    /**
     * True when the RRset read back after the update shows the change. Only rows owned by the record's
     * own name count: dig follows a CNAME, so the rows of its target must not verify a write next to it.
     */
    boolean verifiedBy(List<Map<String, Object>> rrset) {
        List<Map<String, Object>> ofType = rrset.stream().filter(r -> type.equals(r.get("type"))
                && fqdn.equalsIgnoreCase(String.valueOf(r.get("name")))).toList();
        return switch (kind) {
            case "add" -> ofType.stream().anyMatch(r -> ZoneRecords.holds(r, type, data.orElseThrow())
                    && ttlMatches(r));
            case "update" -> ofType.size() == 1 && ZoneRecords.holds(ofType.getFirst(), type, data.orElseThrow())
                    && ttlMatches(ofType.getFirst());
            default -> data.isEmpty() ? ofType.isEmpty()
                    : ofType.stream().noneMatch(r -> ZoneRecords.holds(r, type, data.get()));
        };
    }

    private boolean ttlMatches(Map<String, Object> row) {
        return ((Number) row.get("ttl")).longValue() == ttl.orElseThrow();
    }

    /** What the result and the preview show of the change. */
    Map<String, Object> describe() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("change", kind);
        m.put("zone", zone);
        m.put("name", fqdn);
        m.put("type", type);
        ttl.ifPresent(t -> m.put("ttl", t));
        data.ifPresent(d -> m.put("data", d));
        return m;
    }
}
