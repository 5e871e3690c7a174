package dev.backplane.plugins.firewall;

import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.ErrorCode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/** Builds the {@link FirewallChange} of each write operation from validated parameters. */
final class FirewallChanges {

    static final int MAX_ELEMENTS = 64;
    private static final Set<String> WRITES = Set.of("firewall.rule.add", "firewall.rule.delete",
            "firewall.element.add", "firewall.element.delete");

    private FirewallChanges() {
    }

    static boolean isWrite(String opId) {
        return WRITES.contains(opId);
    }

    static FirewallChange of(String opId, Map<String, Object> p) {
        String family = FwNames.family(p);
        String table = FwNames.identifier(p, "table");
        Map<String, Object> describe = new LinkedHashMap<>();
        describe.put("family", family);
        describe.put("table", table);
        return switch (opId) {
            case "firewall.rule.add" -> {
                RuleSpec rule = RuleSpec.of(p);
                describe.put("chain", rule.chain());
                describe.put("rule", rule.statement());
                yield new FirewallChange(opId, List.of(rule.addLine()), describe,
                        NftCommands.listChain(family, table, rule.chain()));
            }
            case "firewall.rule.delete" -> {
                String chain = FwNames.identifier(p, "chain");
                long handle = FwNames.handle(p);
                describe.put("chain", chain);
                describe.put("handle", handle);
                yield new FirewallChange(opId, List.of("delete rule " + family + " " + table + " " + chain + " handle "
                        + handle), describe, NftCommands.listChain(family, table, chain));
            }
            case "firewall.element.add", "firewall.element.delete" -> {
                String set = FwNames.identifier(p, "set");
                List<FwNames.Prefix> elements = elements(p);
                describe.put("set", set);
                describe.put("elements", elements.stream().map(FwNames.Prefix::text).toList());
                String verb = opId.endsWith(".add") ? "add" : "delete";
                yield new FirewallChange(opId, List.of(verb + " element " + family + " " + table + " " + set + " { "
                        + elements.stream().map(FwNames.Prefix::text).collect(Collectors.joining(", ")) + " }"),
                        describe, NftCommands.listJson("set", family, table, set));
            }
            default -> throw new ConnectorException(ErrorCode.UNKNOWN_OPERATION, "unknown operation " + opId);
        };
    }

    /** The {@code elements} param: 1..64 addresses or prefixes. */
    static List<FwNames.Prefix> elements(Map<String, Object> p) {
        if (!(p.get("elements") instanceof List<?> list) || list.isEmpty() || list.size() > MAX_ELEMENTS) {
            throw FwNames.invalid("elements", "a list of 1.." + MAX_ELEMENTS + " addresses or prefixes");
        }
        return list.stream().map(v -> FwNames.address("elements", v)).toList();
    }
}
