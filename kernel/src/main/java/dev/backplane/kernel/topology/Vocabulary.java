package dev.backplane.kernel.topology;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The words of the graph. Edge kinds are closed at ten (SPEC names four; the other six cover the
 * families this product serves: identity, service dependencies, replication, backups, DNS and
 * firewalls), so every consumer can rely on them; node kinds are open slugs, with a documented list of
 * the ones discovery and the families use.
 */
public final class Vocabulary {

    /** The closed edge vocabulary, in the order error answers list it. */
    public static final List<String> EDGE_KINDS = List.of("runs-on", "mounts", "routes-through", "belongs-to",
            "authenticates-via", "depends-on", "replicates-to", "backed-up-by", "resolves-to", "allows");

    /**
     * Kinds a node has at most one of: two sources naming different ends (a curated "pod runs-on n1" and a
     * discovered "runs-on n2", or two clusters disagreeing) is a contradiction, flagged as a conflict.
     */
    static final Set<String> SINGLE_VALUED = Set.of("runs-on");

    /** Node kinds discovery and the families use; any other slug of 2..63 characters is accepted too. */
    public static final List<String> WELL_KNOWN_NODE_KINDS = List.of("target", "namespace", "pod", "service", "ingress",
            "node", "volume", "host", "vm", "network", "datastore", "dns-zone", "dns-record", "firewall-rule",
            "principal", "secret-mount", "deployment", "realm", "client", "user", "group");

    public static final String TARGET = "target";
    static final Pattern NODE_KIND = Pattern.compile("[a-z][a-z0-9-]{0,61}[a-z0-9]");
    static final int MAX_NAME = 512;
    static final int MAX_TEXT = 2000;

    private Vocabulary() {
    }

    static String edgeKind(String kind) {
        if (kind == null || !EDGE_KINDS.contains(kind)) {
            throw TopologyErrors.UNKNOWN_EDGE_KIND.error("edge kind must be one of " + String.join(", ", EDGE_KINDS)
                    + "; got '" + kind + "'", Map.of("field", "kind", "valid_kinds", EDGE_KINDS));
        }
        return kind;
    }

    static String nodeKind(String kind, String field) {
        if (kind == null || !NODE_KIND.matcher(kind).matches()) {
            throw TopologyErrors.INVALID_NODE_KIND.error(field + " must be a slug of 2-63 lower-case letters, digits "
                    + "and '-' (for example " + String.join(", ", WELL_KNOWN_NODE_KINDS.subList(0, 6)) + "); got '" + kind
                    + "'", Map.of("field", field));
        }
        return kind;
    }

    static String nodeName(String name, String field) {
        if (name == null || name.isBlank() || name.length() > MAX_NAME || !name.strip().equals(name)
                || name.chars().anyMatch(Character::isISOControl)) {
            throw TopologyErrors.INVALID_NODE_NAME.error(field + " must be 1-" + MAX_NAME + " characters without "
                    + "control characters or surrounding spaces", Map.of("field", field));
        }
        return name;
    }
}
