package dev.backplane.plugins.dns;

import dev.backplane.plugin.api.Catalog;
import dev.backplane.plugin.api.OpClass;
import dev.backplane.plugin.api.OperationDescriptor;
import dev.backplane.plugin.api.OperationGroup;
import dev.backplane.plugin.api.OperationShape;
import dev.backplane.plugin.api.ResultKind;
import dev.backplane.plugin.api.SafetyLevel;
import java.util.List;

/**
 * The dns-ssh operations: reads of a BIND 9 server (zones, records, status, configuration check) and
 * governed writes (record add, update, delete; zone reload), each a fixed command over SSH. The op
 * ids start with {@code dns.}, so the CLI's family verbs are {@code svc dns <noun> <verb>}.
 */
final class DnsCatalog {

    private DnsCatalog() {
    }

    private static String pattern(String regex) {
        return "\"pattern\": \"" + regex.replace("\\", "\\\\") + "\"";
    }

    private static final String ZONE = """
            "zone": {"type": "string", "maxLength": 254, %s, "description": "the zone, e.g. example.com"}"""
            .formatted(pattern(DnsNames.ZONE));
    private static final String RECORD_NAME = """
            "name": {"type": "string", "maxLength": 254, %s, "description": "record name: '@', relative to the zone, or absolute with a trailing dot"}"""
            .formatted(pattern(DnsNames.NAME));
    private static final String TYPE = """
            "type": {"type": "string", "enum": %s, "description": "record type"}"""
            .formatted(DnsNames.TYPES.stream().map(t -> "\"" + t + "\"").toList());
    private static final String TTL = """
            "ttl": {"type": "integer", "minimum": 0, "maximum": %d, "description": "time to live in seconds"}"""
            .formatted(DnsNames.TTL_MAX);
    private static final String DATA = """
            "data": {"type": "string", "maxLength": 255, %s, "description": "record data: A/AAAA address; CNAME/NS/PTR host; MX '<pref> <host>'; SRV '<prio> <weight> <port> <host>'; TXT one word. Hosts without a trailing dot are inside the zone."}"""
            .formatted(pattern(DnsNames.DATA));

    private static final String NONE = """
            {"type": "object", "additionalProperties": false, "properties": {}}""";
    private static final String ZONE_BY_NAME = """
            {"type": "object", "additionalProperties": false, "required": ["name"],
             "properties": {"name": {"type": "string", "maxLength": 254, %s, "description": "the zone"}}}"""
            .formatted(pattern(DnsNames.ZONE));
    private static final String SEARCH = """
            {"type": "object", "additionalProperties": false, "required": ["zone"],
             "properties": {%s,
               "name_contains": {"type": "string", %s, "description": "part of the record name"},
               %s,
               "data_contains": {"type": "string", %s, "description": "part of the record data"}}}"""
            .formatted(ZONE, pattern(DnsNames.FILTER), TYPE, pattern(DnsNames.FILTER));
    private static final String RECORD = """
            {"type": "object", "additionalProperties": false, "required": ["zone", "name", "type", "ttl", "data"],
             "properties": {%s, %s, %s, %s, %s}}""".formatted(ZONE, RECORD_NAME, TYPE, TTL, DATA);
    private static final String DELETE = """
            {"type": "object", "additionalProperties": false, "required": ["zone", "name", "type"],
             "properties": {%s, %s, %s, %s}}""".formatted(ZONE, RECORD_NAME, TYPE,
            DATA.replace("record data:", "only this record (default: the whole RRset):"));

    static final Catalog CATALOG = new Catalog(
            List.of(new OperationGroup("server", "DNS server", "the BIND version, whether it runs, and whether its "
                            + "configuration and zone files load"),
                    new OperationGroup("zones", "Zones", "which zones the server serves, their records, reloading a zone"),
                    new OperationGroup("records", "Records", "finding, adding, changing and deleting DNS records")),
            List.of(
                    read("dns.about", "server", "BIND's version line (named -v)", NONE, "named", ResultKind.OBJECT),
                    read("dns.server.status", "server", "The running server's status (rndc status)", NONE, "rndc",
                            ResultKind.OBJECT),
                    read("dns.config.check", "server", "Checks the configuration and loads every zone file "
                            + "(named-checkconf -z); ok is false with the messages when something does not load",
                            NONE, "named-checkconf", ResultKind.OBJECT),
                    read("dns.zone.list", "zones", "The zones in the configuration: zone, class, view, type",
                            NONE, "named-checkconf", ResultKind.SET),
                    read("dns.zone.show", "zones", "Every record of a zone, by zone transfer from the server: name, "
                            + "type, ttl, data", ZONE_BY_NAME, "dig", ResultKind.SET),
                    read("dns.record.search", "records", "Records of a zone filtered by name, type and data",
                            SEARCH, "dig", ResultKind.SET),
                    write("dns.record.add", "records", "Adds a record (nsupdate, signed with the target's TSIG key), "
                            + "then reads the RRset back to verify it", RECORD, SafetyLevel.CAUTION, "nsupdate"),
                    write("dns.record.update", "records", "Replaces a name's RRset of one type with this one record in "
                            + "one update, then reads it back to verify", RECORD, SafetyLevel.CAUTION, "nsupdate"),
                    write("dns.record.delete", "records", "Deletes one record (with data) or a name's whole RRset of "
                            + "one type, then reads back to verify it is gone", DELETE, SafetyLevel.DANGEROUS,
                            "nsupdate"),
                    write("dns.zone.reload", "zones", "Reloads a zone from its file (rndc reload); dynamic zones "
                            + "refuse this", ZONE_BY_NAME, SafetyLevel.CAUTION, "rndc")));

    private static OperationDescriptor read(String id, String group, String description, String schema, String program,
                                            ResultKind kind) {
        return new OperationDescriptor(id, group, description, SafetyLevel.SAFE, false, OpClass.READ, schema,
                new OperationShape.Command(program), kind);
    }

    private static OperationDescriptor write(String id, String group, String description, String schema,
                                             SafetyLevel safety, String program) {
        return new OperationDescriptor(id, group, description, safety, true, OpClass.WRITE, schema,
                new OperationShape.Command(program), ResultKind.OBJECT);
    }
}
