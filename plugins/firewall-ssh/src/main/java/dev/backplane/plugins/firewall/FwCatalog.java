package dev.backplane.plugins.firewall;

import dev.backplane.plugin.api.Catalog;
import dev.backplane.plugin.api.OpClass;
import dev.backplane.plugin.api.OperationDescriptor;
import dev.backplane.plugin.api.OperationGroup;
import dev.backplane.plugin.api.OperationShape;
import dev.backplane.plugin.api.ResultKind;
import dev.backplane.plugin.api.SafetyLevel;
import java.util.List;

/**
 * The firewall-ssh operations on an nftables host: reads of the ruleset, tables, chains, rules with
 * handles, sets and counters; governed writes (rule add/delete, set element add/delete). Op ids start
 * with {@code firewall.}, so the CLI's verbs are {@code svc firewall <noun> <verb>}.
 */
final class FwCatalog {

    private FwCatalog() {
    }

    private static String pattern(String regex) {
        return "\"pattern\": \"" + regex.replace("\\", "\\\\") + "\"";
    }

    private static final String FAMILY = """
            "family": {"type": "string", "enum": %s, "description": "the table's family"}"""
            .formatted(FwNames.FAMILIES.stream().map(f -> "\"" + f + "\"").toList());
    private static String identifier(String name, String description) {
        return """
                "%s": {"type": "string", %s, "description": "%s"}""".formatted(name, pattern(FwNames.IDENTIFIER),
                description);
    }

    private static final String TABLE = identifier("table", "the table");
    private static final String CHAIN = identifier("chain", "the chain");
    private static final String LOCKOUT = """
            "allow_lockout": {"type": "boolean", "description": "skip the check that refuses a change which could drop the backplane's own SSH session"}""";
    private static final String ADDRESS = address("an address or prefix");

    private static String address(String description) {
        return "{\"type\": \"string\", " + pattern(FwNames.ADDRESS) + ", \"description\": \"" + description + "\"}";
    }

    private static final String NONE = """
            {"type": "object", "additionalProperties": false, "properties": {}}""";
    private static final String IN_CHAIN = """
            {"type": "object", "additionalProperties": false, "required": ["family", "table", "chain"],
             "properties": {%s, %s, %s}}""".formatted(FAMILY, TABLE, CHAIN);
    private static final String SET = """
            {"type": "object", "additionalProperties": false, "required": ["family", "table", "name"],
             "properties": {%s, %s, %s}}""".formatted(FAMILY, TABLE, identifier("name", "the set"));
    private static final String RULE_ADD = """
            {"type": "object", "additionalProperties": false, "required": ["family", "table", "chain", "verdict"],
             "properties": {%s, %s, %s,
               "protocol": {"type": "string", "enum": %s, "description": "match tcp or udp (required with dport)"},
               "dport": {"type": "integer", "minimum": 1, "maximum": 65535, "description": "destination port"},
               "saddr": %s, "daddr": %s,
               "counter": {"type": "boolean", "description": "count the rule's matches"},
               "comment": {"type": "string", %s, "description": "a one-word comment"},
               "verdict": {"type": "string", "enum": %s},
               %s}}""".formatted(FAMILY, TABLE, CHAIN, FwNames.PROTOCOLS.stream().map(v -> "\"" + v + "\"").toList(),
            address("source address or prefix"), address("destination address or prefix"), pattern(FwNames.COMMENT),
            FwNames.VERDICTS.stream().map(v -> "\"" + v + "\"").toList(), LOCKOUT);
    private static final String RULE_DELETE = """
            {"type": "object", "additionalProperties": false, "required": ["family", "table", "chain", "handle"],
             "properties": {%s, %s, %s,
               "handle": {"type": "integer", "minimum": 1, "maximum": 2147483647, "description": "the rule's handle (firewall.rule.list)"},
               %s}}""".formatted(FAMILY, TABLE, CHAIN, LOCKOUT);
    private static final String ELEMENTS = """
            {"type": "object", "additionalProperties": false, "required": ["family", "table", "set", "elements"],
             "properties": {%s, %s, %s,
               "elements": {"type": "array", "minItems": 1, "maxItems": %d, "items": %s, "description": "addresses or prefixes"},
               %s}}""".formatted(FAMILY, TABLE, identifier("set", "the set"), FirewallChanges.MAX_ELEMENTS, ADDRESS,
            LOCKOUT);

    static final Catalog CATALOG = new Catalog(
            List.of(new OperationGroup("ruleset", "Ruleset", "the nftables version and the whole ruleset, tables "
                            + "and chains"),
                    new OperationGroup("rules", "Rules", "rules of a chain with their handles and counters; adding "
                            + "and deleting rules"),
                    new OperationGroup("sets", "Sets", "named sets and counters; blocking and unblocking addresses "
                            + "through set elements")),
            List.of(
                    read("firewall.about", "ruleset", "nft's version (nft -v)", NONE, ResultKind.OBJECT),
                    read("firewall.ruleset.show", "ruleset", "The whole ruleset as nft's JSON objects", NONE,
                            ResultKind.OBJECT),
                    read("firewall.table.list", "ruleset", "Tables: family, name, handle", NONE, ResultKind.SET),
                    read("firewall.chain.list", "ruleset", "Chains: family, table, name, handle, type, hook, prio, "
                            + "policy", NONE, ResultKind.SET),
                    read("firewall.rule.list", "rules", "A chain's rules: handle, rule text, packets and bytes of "
                            + "counting rules", IN_CHAIN, ResultKind.SET),
                    read("firewall.set.list", "sets", "Named sets: family, table, name, type, flags", NONE,
                            ResultKind.SET),
                    read("firewall.set.show", "sets", "A set's elements (addresses and prefixes)", SET, ResultKind.SET),
                    read("firewall.counter.list", "sets", "Named counters: packets and bytes", NONE, ResultKind.SET),
                    write("firewall.rule.add", "rules", "Adds a rule built from typed fields (nft -c, then nft -f as "
                            + "one transaction), verified by its handle; refuses a rule that could drop the "
                            + "backplane's SSH session unless allow_lockout", RULE_ADD, SafetyLevel.DANGEROUS),
                    write("firewall.rule.delete", "rules", "Deletes a rule by handle, verified gone; refuses deleting "
                            + "the accept rule for the SSH port of a drop-policy chain unless allow_lockout",
                            RULE_DELETE, SafetyLevel.DANGEROUS),
                    write("firewall.element.add", "sets", "Adds addresses to a set (block them, when a drop rule "
                            + "uses the set), verified by reading the set; refuses the backplane's own address unless "
                            + "allow_lockout", ELEMENTS, SafetyLevel.CAUTION),
                    write("firewall.element.delete", "sets", "Removes addresses from a set (unblock), verified by "
                            + "reading the set", ELEMENTS, SafetyLevel.CAUTION)));

    private static OperationDescriptor read(String id, String group, String description, String schema, ResultKind kind) {
        return new OperationDescriptor(id, group, description, SafetyLevel.SAFE, false, OpClass.READ, schema,
                new OperationShape.Command("nft"), kind);
    }

    private static OperationDescriptor write(String id, String group, String description, String schema,
                                             SafetyLevel safety) {
        return new OperationDescriptor(id, group, description, safety, true, OpClass.WRITE, schema,
                new OperationShape.Command("nft"), ResultKind.OBJECT);
    }
}
