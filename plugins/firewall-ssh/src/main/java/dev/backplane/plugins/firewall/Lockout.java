package dev.backplane.plugins.firewall;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Whether a rule nft printed ({@code nft -a list ...} text) could match the packets of the management
 * session — in either direction, so input and output chains are both covered. It errs towards
 * "could match": only a clause that provably excludes the session (an address prefix holding neither
 * end's address, ports that are neither end's port, a protocol other than tcp, a conntrack state set
 * without new, established and related) makes a rule harmless; negations ({@code !=}), named sets,
 * maps, interface names and anything unparsed exclude nothing.
 */
final class Lockout {

    private static final Pattern ADDRESS = Pattern.compile("\\bip6? (saddr|daddr) (\\{[^}]*\\}|\\S+)");
    private static final Pattern PORT = Pattern.compile("\\b(tcp|udp|th|sctp|dccp|udplite) (sport|dport) "
            + "(\\{[^}]*\\}|\\S+)");
    private static final Pattern PROTOCOL = Pattern.compile("\\b(meta l4proto|ip protocol|ip6 nexthdr) "
            + "(\\{[^}]*\\}|\\S+)");
    private static final Pattern CT_STATE = Pattern.compile("\\bct state (\\{[^}]*\\}|\\S+)");
    private static final Pattern L4_WORD = Pattern.compile("^(udp|udplite|sctp|dccp|icmp|icmpv6|igmp|esp|ah|gre)\\b");
    private static final Pattern PORT_VALUE = Pattern.compile("(\\d{1,5})(-(\\d{1,5}))?");

    private Lockout() {
    }

    /** True unless some clause of {@code rule} provably excludes the management session. */
    static boolean couldMatch(String rule, Management m) {
        if (rule.contains("!=")) {
            return true;
        }
        Matcher a = ADDRESS.matcher(rule);
        while (a.find()) {
            Optional<List<String>> values = values(a.group(2));
            if (values.isPresent() && values.get().stream().noneMatch(v -> holdsAnEnd(v, m))) {
                return false;
            }
        }
        Matcher p = PORT.matcher(rule);
        while (p.find()) {
            if (!p.group(1).equals("tcp") && !p.group(1).equals("th")) {
                return false;
            }
            Optional<List<String>> values = values(p.group(3));
            if (values.isPresent() && values.get().stream().noneMatch(v -> holdsAPort(v, m))) {
                return false;
            }
        }
        Matcher proto = PROTOCOL.matcher(rule);
        while (proto.find()) {
            Optional<List<String>> values = values(proto.group(2));
            if (values.isPresent() && values.get().stream().noneMatch(v -> v.equals("tcp") || v.equals("6"))) {
                return false;
            }
        }
        Matcher ct = CT_STATE.matcher(rule);
        while (ct.find()) {
            Optional<List<String>> values = values(ct.group(1));
            if (values.isPresent() && values.get().stream().noneMatch(v -> v.equals("new") || v.equals("established")
                    || v.equals("related"))) {
                return false;
            }
        }
        // a rule that starts with another protocol's match ("udp dport 53 accept", "icmp type ...")
        return !L4_WORD.matcher(rule.strip()).find();
    }

    /** True when deleting {@code rule} from a policy-drop chain could end the session: it lets packets through. */
    static boolean letsThrough(String rule) {
        return Pattern.compile("\\b(accept|jump|goto|return|continue|queue)\\b").matcher(rule).find()
                || !Pattern.compile("\\b(drop|reject)\\b").matcher(rule).find();
    }

    /** True when {@code element} contains the address of either end of the session. */
    static boolean holdsAnEnd(FwNames.Prefix element, Management m) {
        return element.contains(m.client()) || element.contains(m.server());
    }

    /**
     * The rules in a table listing that use the named set {@code set}, without comments and handles.
     *
     * @param tableListing {@code nft -a list table} text
     */
    static List<String> rulesUsing(String tableListing, String set) {
        Pattern use = Pattern.compile("@" + Pattern.quote(set) + "(?![A-Za-z0-9_])");
        List<String> rules = new ArrayList<>();
        for (String line : tableListing.lines().toList()) {
            String t = line.replaceAll("comment \"[^\"]*\"", "").replaceAll("# handle \\d+\\s*$", "").strip();
            if (use.matcher(t).find() && !t.startsWith("set ") && !t.startsWith("map ")) {
                rules.add(t);
            }
        }
        return rules;
    }

    private static boolean holdsAnEnd(String value, Management m) {
        try {
            return holdsAnEnd(FwNames.address("element", value), m);
        } catch (RuntimeException e) {
            return true; // a range or anything else unparsed: assume it could
        }
    }

    private static boolean holdsAPort(String value, Management m) {
        Matcher v = PORT_VALUE.matcher(value);
        if (!v.matches()) {
            return true; // a service name or anything else: assume it could
        }
        int low = Integer.parseInt(v.group(1));
        int high = v.group(3) == null ? low : Integer.parseInt(v.group(3));
        return (m.serverPort() >= low && m.serverPort() <= high) || (m.clientPort() >= low && m.clientPort() <= high);
    }

    /** The values of a clause: one word or an anonymous set; empty for a named set, a map or a variable. */
    private static Optional<List<String>> values(String clause) {
        if (clause.startsWith("@") || clause.startsWith("$") || clause.contains(" : ")) {
            return Optional.empty();
        }
        String inner = clause.startsWith("{") ? clause.substring(1, clause.length() - 1) : clause;
        List<String> values = new ArrayList<>();
        for (String v : inner.split(",")) {
            String t = v.strip();
            if (!t.isEmpty()) {
                values.add(t);
            }
        }
        return values.isEmpty() ? Optional.empty() : Optional.of(values);
    }
}
