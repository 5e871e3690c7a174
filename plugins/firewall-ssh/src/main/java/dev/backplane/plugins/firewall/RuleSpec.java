package dev.backplane.plugins.firewall;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A rule built from typed fields — never from rule text: optional protocol with destination port,
 * optional source and destination prefix, an optional counter and comment, and a verdict.
 *
 * <p>The lock-out check ({@link #wouldDrop}): a drop or reject rule locks the backplane out when it can
 * match the management session — its protocol is absent or tcp, its destination port is absent or the
 * SSH port, its source prefix is absent or contains the backplane's address and its destination prefix
 * is absent or contains the server's address. The chain it goes in is not considered (any chain may be
 * jumped to from the input hook), so the check errs on the side of refusing.
 *
 * @param family the table family
 * @param table the table
 * @param chain the chain
 * @param protocol tcp or udp, if any
 * @param dport destination port (needs a protocol)
 * @param saddr source prefix
 * @param daddr destination prefix
 * @param counter whether to count matches
 * @param comment a one-word comment
 * @param verdict accept, drop or reject
 */
record RuleSpec(String family, String table, String chain, Optional<String> protocol, Optional<Integer> dport,
                Optional<FwNames.Prefix> saddr, Optional<FwNames.Prefix> daddr, boolean counter,
                Optional<String> comment, String verdict) {

    static RuleSpec of(Map<String, Object> p) {
        String family = FwNames.family(p);
        Optional<String> protocol = p.get("protocol") == null ? Optional.empty()
                : Optional.of(FwNames.oneOf(p, "protocol", FwNames.PROTOCOLS));
        Optional<Integer> dport = p.get("dport") == null ? Optional.empty() : Optional.of(FwNames.port(p, "dport"));
        if (dport.isPresent() && protocol.isEmpty()) {
            throw FwNames.invalid("protocol", "given with dport (tcp or udp)");
        }
        Optional<FwNames.Prefix> saddr = Optional.ofNullable(p.get("saddr")).map(v -> FwNames.address("saddr", v));
        Optional<FwNames.Prefix> daddr = Optional.ofNullable(p.get("daddr")).map(v -> FwNames.address("daddr", v));
        if (saddr.isPresent() && daddr.isPresent() && saddr.get().v4() != daddr.get().v4()) {
            throw FwNames.invalid("daddr", "of the same IP version as saddr");
        }
        return new RuleSpec(family, FwNames.identifier(p, "table"), FwNames.identifier(p, "chain"), protocol, dport,
                saddr, daddr, Boolean.TRUE.equals(p.get("counter")),
                p.get("comment") == null ? Optional.empty() : Optional.of(FwNames.comment(p)),
                FwNames.oneOf(p, "verdict", FwNames.VERDICTS));
    }

    /** The rule's statement, in nft syntax. */
    String statement() {
        List<String> words = new ArrayList<>();
        saddr.ifPresent(a -> words.add((a.v4() ? "ip" : "ip6") + " saddr " + a.text()));
        daddr.ifPresent(a -> words.add((a.v4() ? "ip" : "ip6") + " daddr " + a.text()));
        protocol.ifPresent(proto -> words.add(dport.map(port -> proto + " dport " + port)
                .orElse("meta l4proto " + proto)));
        if (counter) {
            words.add("counter");
        }
        words.add(verdict);
        comment.ifPresent(c -> words.add("comment \"" + c + "\""));
        return String.join(" ", words);
    }

    String addLine() {
        return "add rule " + family + " " + table + " " + chain + " " + statement();
    }

    /** True when this rule could drop the management session (see the class comment). */
    boolean wouldDrop(Management m) {
        return !verdict.equals("accept")
                && protocol.map("tcp"::equals).orElse(true)
                && dport.map(p -> p == m.serverPort()).orElse(true)
                && saddr.map(a -> a.contains(m.client())).orElse(true)
                && daddr.map(a -> a.contains(m.server())).orElse(true);
    }
}
