package dev.backplane.plugins.firewall;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.backplane.kernel.testing.TempDirs;
import dev.backplane.plugin.api.Connector;
import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.Credential;
import dev.backplane.plugin.api.ErrorCode;
import dev.backplane.plugin.api.HttpPreview;
import dev.backplane.plugin.api.OperationRequest;
import dev.backplane.plugin.api.OperationResult;
import dev.backplane.plugin.api.TargetSpec;
import dev.backplane.plugin.api.testkit.ClassFixture;
import dev.backplane.plugin.api.testkit.RecordingContext;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The firewall-ssh connector driven directly against nftables in a network namespace, through a real sshd. */
class FirewallSessionTest {

    private static final String MARKER = "/tmp/fw-ssh-injected-" + UUID.randomUUID();
    private static final List<String> INJECTIONS = List.of("; touch " + MARKER, "$(touch " + MARKER + ")",
            "`touch " + MARKER + "`", "a\nb", "a'b", "a\"b", "a b", "a|b", "-x", "a}b", "");
    @RegisterExtension
    static final ClassFixture<NftLab> LAB = ClassFixture.unless(NftLab::unavailable,
            () -> NftLab.start(TempDirs.create("fw-session")));

    private static Connector open() throws Exception {
        TargetSpec target = new TargetSpec("fw1", "nftables", "127.0.0.1", LAB.get().ssh().port(), Optional.empty(), true,
                Optional.empty(), Optional.empty(), LAB.get().extras());
        return new FirewallConnectorFactory().open(new RecordingContext(), target,
                new Credential(Map.of("username", LAB.get().ssh().user(), "private_key", LAB.get().ssh().privateKey())));
    }

    private static OperationResult call(Connector c, String op, Map<String, Object> params) {
        return c.invoke(new OperationRequest(op, params, Optional.empty()));
    }

    private static Map<String, Object> rule(Object... more) {
        Map<String, Object> p = new HashMap<>(Map.of("family", "inet", "table", "filter", "chain", "input"));
        for (int i = 0; i < more.length; i += 2) {
            p.put((String) more[i], more[i + 1]);
        }
        return p;
    }

    private static Map<?, ?> document(OperationResult r) {
        assertThat(r).as(r.toString()).isInstanceOf(OperationResult.Document.class);
        return (Map<?, ?>) ((OperationResult.Document) r).value();
    }

    @Test
    void readsAnswerRows() throws Exception {
        try (Connector c = open()) {
            var chains = (OperationResult.Rows) call(c, "firewall.chain.list", Map.of());
            assertThat(chains.rows()).extracting(r -> r.get("name")).contains("input", "locked");
            var rules = (OperationResult.Rows) call(c, "firewall.rule.list", rule());
            assertThat(rules.rows()).anySatisfy(r -> {
                assertThat(r.get("rule").toString()).contains("@blocklist").contains("drop");
                assertThat(r).containsKeys("handle", "packets", "bytes");
            });
            var sets = (OperationResult.Rows) call(c, "firewall.set.list", Map.of());
            assertThat(sets.rows()).extracting(r -> r.get("name")).contains("blocklist");
            var tables = (OperationResult.Rows) call(c, "firewall.table.list", Map.of());
            assertThat(tables.rows()).contains(Map.of("family", "inet", "name", "filter", "handle",
                    tables.rows().getFirst().get("handle")));
            assertThat(c.probe().version()).hasValueSatisfying(v -> assertThat(v).matches("1\\.\\d+\\.\\d+"));
        }
    }

    @Test
    void aRuleIsCheckedAppliedAndVerifiedThenDeletedByHandle() throws Exception {
        try (Connector c = open()) {
            Map<?, ?> added = document(call(c, "firewall.rule.add", rule("protocol", "tcp", "dport", 8443, "saddr",
                    "198.51.100.0/24", "counter", true, "comment", "CHG-9", "verdict", "drop")));
            assertThat(added.get("verified")).isEqualTo(true);
            long handle = ((Number) added.get("handle")).longValue();
            assertThat(LAB.get().listChain("input")).contains("ip saddr 198.51.100.0/24 tcp dport 8443 counter packets 0 "
                    + "bytes 0 drop comment \"CHG-9\" # handle " + handle);
            Map<?, ?> deleted = document(call(c, "firewall.rule.delete", rule("handle", handle)));
            assertThat(deleted.get("verified")).isEqualTo(true);
            assertThat(LAB.get().listChain("input")).doesNotContain("# handle " + handle + "\n");

            OperationResult refused = call(c, "firewall.rule.add", rule("chain", "nosuch", "verdict", "accept"));
            assertThat(((OperationResult.Failure) refused).message()).contains("nft -c refused");
        }
    }

    @Test
    void setElementsBlockAndUnblockAddresses() throws Exception {
        try (Connector c = open()) {
            Map<String, Object> p = Map.of("family", "inet", "table", "filter", "set", "blocklist", "elements",
                    List.of("192.0.2.7", "203.0.113.0/24"));
            assertThat(document(call(c, "firewall.element.add", p)).get("verified")).isEqualTo(true);
            assertThat(LAB.get().listSet("blocklist")).contains("192.0.2.7").contains("203.0.113.0/24");
            var shown = (OperationResult.Rows) call(c, "firewall.set.show", Map.of("family", "inet", "table", "filter",
                    "name", "blocklist"));
            assertThat(shown.rows()).extracting(r -> r.get("element")).contains("192.0.2.7", "203.0.113.0/24");
            assertThat(document(call(c, "firewall.element.delete", p)).get("verified")).isEqualTo(true);
            assertThat(LAB.get().listSet("blocklist")).doesNotContain("192.0.2.7");
        }
    }

    @Test
    void changesThatWouldDropTheManagementSessionAreRefusedUnlessAllowed() throws Exception {
        int sshPort = LAB.get().ssh().port();
        try (Connector c = open()) {
            for (Map<String, Object> p : List.of(rule("verdict", "drop"), rule("protocol", "tcp", "dport", sshPort,
                    "verdict", "reject"), rule("saddr", "127.0.0.0/8", "verdict", "drop"))) {
                ConnectorException e = catchThrowableOfType(ConnectorException.class,
                        () -> call(c, "firewall.rule.add", p));
                assertThat(e.code()).as(p.toString()).isEqualTo(ErrorCode.INVALID_PARAMS);
                assertThat(e.getMessage()).contains("allow_lockout");
            }
            assertThat(document(call(c, "firewall.rule.add", rule("protocol", "tcp", "dport", sshPort + 1,
                    "verdict", "drop"))).get("verified")).as("another port is fine").isEqualTo(true);
            assertThat(document(call(c, "firewall.rule.add", rule("saddr", "10.0.0.0/8", "verdict", "drop")))
                    .get("verified")).as("another source is fine").isEqualTo(true);
            ConnectorException self = catchThrowableOfType(ConnectorException.class, () -> call(c,
                    "firewall.element.add", Map.of("family", "inet", "table", "filter", "set", "blocklist",
                            "elements", List.of("127.0.0.1"))));
            assertThat(self.code()).isEqualTo(ErrorCode.INVALID_PARAMS);

            String locked = LAB.get().listChain("locked");
            long acceptSsh = Long.parseLong(locked.replaceAll("(?s).*tcp dport " + sshPort + " accept # handle (\\d+).*",
                    "$1"));
            ConnectorException unlock = catchThrowableOfType(ConnectorException.class, () -> call(c,
                    "firewall.rule.delete", Map.of("family", "inet", "table", "filter", "chain", "locked",
                            "handle", acceptSsh)));
            assertThat(unlock.code()).isEqualTo(ErrorCode.INVALID_PARAMS);
            assertThat(LAB.get().listChain("locked")).contains("# handle " + acceptSsh);

            Map<?, ?> forced = document(call(c, "firewall.rule.add", rule("protocol", "tcp", "dport", sshPort,
                    "saddr", "127.0.0.1", "verdict", "drop", "allow_lockout", true)));
            assertThat(forced.get("verified")).as("the explicit flag lets it through").isEqualTo(true);
            call(c, "firewall.rule.delete", rule("handle", forced.get("handle")));
        }
    }

    @Test
    void deletionsAndSetChangesThatCouldEndTheSessionAreRefused() throws Exception {
        int sshPort = LAB.get().ssh().port();
        LAB.get().nft("""
                add set inet filter mgmt { type ipv4_addr; elements = { 127.0.0.1, 192.0.2.50 }; }
                add set inet filter blockdst { type ipv4_addr; }
                add chain inet filter guarded { type filter hook forward priority 10; policy drop; }
                add rule inet filter guarded ip saddr @mgmt accept
                add rule inet filter guarded ip daddr @blockdst drop
                add rule inet filter guarded ip saddr 127.0.0.1 accept
                add rule inet filter guarded tcp sport %d accept
                add rule inet filter guarded ct state established,related accept
                add rule inet filter guarded udp dport 53 accept
                add rule inet filter guarded ip saddr 10.0.0.0/8 accept
                """.formatted(sshPort));
        String guarded = LAB.get().listChain("guarded");
        try (Connector c = open()) {
            for (String rule : List.of("ip saddr 127.0.0.1 accept", "tcp sport " + sshPort + " accept",
                    "ct state established,related accept")) {
                long handle = handleOf(guarded, rule);
                ConnectorException e = catchThrowableOfType(ConnectorException.class, () -> call(c,
                        "firewall.rule.delete", rule("chain", "guarded", "handle", handle)));
                assertThat(e).as(rule).isNotNull();
                assertThat(e.code()).as(rule).isEqualTo(ErrorCode.INVALID_PARAMS);
            }
            for (String rule : List.of("udp dport 53 accept", "ip saddr 10.0.0.0/8 accept")) {
                assertThat(document(call(c, "firewall.rule.delete", rule("chain", "guarded", "handle",
                        handleOf(guarded, rule)))).get("verified")).as(rule + " cannot carry the session").isEqualTo(true);
            }

            ConnectorException unlisted = catchThrowableOfType(ConnectorException.class, () -> call(c,
                    "firewall.element.delete", Map.of("family", "inet", "table", "filter", "set", "mgmt",
                            "elements", List.of("127.0.0.1"))));
            assertThat(unlisted).as("removing the backplane from an allowlist set").isNotNull();
            assertThat(unlisted.code()).isEqualTo(ErrorCode.INVALID_PARAMS);
            assertThat(LAB.get().listSet("mgmt")).contains("127.0.0.1");
            assertThat(document(call(c, "firewall.element.delete", Map.of("family", "inet", "table", "filter",
                    "set", "mgmt", "elements", List.of("192.0.2.50")))).get("verified")).isEqualTo(true);

            ConnectorException blocked = catchThrowableOfType(ConnectorException.class, () -> call(c,
                    "firewall.element.add", Map.of("family", "inet", "table", "filter", "set", "blockdst",
                            "elements", List.of("127.0.0.0/8"))));
            assertThat(blocked).as("the server's own address into a set a drop rule uses").isNotNull();
            assertThat(blocked.code()).isEqualTo(ErrorCode.INVALID_PARAMS);
            assertThat(document(call(c, "firewall.element.add", Map.of("family", "inet", "table", "filter", "set",
                    "mgmt", "elements", List.of("127.0.0.1")))).get("verified")).as("into an allowlist is fine")
                    .isEqualTo(true);

            Map<?, ?> forced = document(call(c, "firewall.element.delete", Map.of("family", "inet", "table", "filter",
                    "set", "mgmt", "elements", List.of("127.0.0.1"), "allow_lockout", true)));
            assertThat(forced.get("verified")).as("allow_lockout overrides").isEqualTo(true);
        } finally {
            LAB.get().nft("delete chain inet filter guarded\ndelete set inet filter mgmt\ndelete set inet filter blockdst\n");
        }
    }

    private static long handleOf(String listing, String rule) {
        return listing.lines().filter(l -> l.strip().startsWith(rule + " # handle")).findFirst()
                .map(l -> Long.parseLong(l.replaceAll(".*# handle (\\d+).*", "$1"))).orElseThrow(() ->
                        new AssertionError(rule + " not in " + listing));
    }

    @Test
    void thePreviewSaysWhetherTheLockoutCheckRuns() throws Exception {
        try (Connector c = open()) {
            Map<String, Object> p = rule("protocol", "tcp", "dport", 22, "verdict", "drop");
            HttpPreview checked = c.preview(new OperationRequest("firewall.rule.add", p, Optional.empty())).orElseThrow();
            Map<String, Object> forced = new HashMap<>(p);
            forced.put("allow_lockout", true);
            HttpPreview unchecked = c.preview(new OperationRequest("firewall.rule.add", forced, Optional.empty()))
                    .orElseThrow();
            assertThat(((Map<?, ?>) checked.body().orElseThrow()).get("lockout_check")).isEqualTo("enforced");
            assertThat(((Map<?, ?>) unchecked.body().orElseThrow()).get("lockout_check")).isEqualTo("skipped");
            assertThat(unchecked.body()).isNotEqualTo(checked.body());
        }
    }

    @Test
    void injectionInEveryStringParameterIsRefused() throws Exception {
        Map<String, Map<String, Object>> ops = Map.of(
                "firewall.rule.add", rule("protocol", "tcp", "dport", 9000, "saddr", "192.0.2.1", "daddr", "192.0.2.2",
                        "comment", "x", "verdict", "drop"),
                "firewall.rule.delete", rule("handle", 999_999),
                "firewall.rule.list", rule(),
                "firewall.set.show", Map.of("family", "inet", "table", "filter", "name", "blocklist"),
                "firewall.element.add", Map.of("family", "inet", "table", "filter", "set", "blocklist",
                        "elements", List.of("192.0.2.1")));
        String before = LAB.get().listChain("input");
        try (Connector c = open()) {
            for (var op : ops.entrySet()) {
                for (String param : op.getValue().keySet()) {
                    boolean list = op.getValue().get(param) instanceof List;
                    if (!(op.getValue().get(param) instanceof String) && !list) {
                        continue;
                    }
                    for (String bad : INJECTIONS) {
                        Map<String, Object> params = new HashMap<>(op.getValue());
                        params.put(param, list ? List.of(bad) : bad);
                        ConnectorException e = catchThrowableOfType(ConnectorException.class,
                                () -> call(c, op.getKey(), params));
                        assertThat(e).as(op.getKey() + " " + param + "=" + bad).isNotNull();
                        assertThat(e.code()).as(op.getKey() + " " + param + "=" + bad).isEqualTo(ErrorCode.INVALID_PARAMS);
                    }
                }
            }
        }
        assertThat(LAB.get().listChain("input")).isEqualTo(before);
        assertThat(Path.of(MARKER)).doesNotExist();
    }

    @Test
    void previewShowsTheCheckTheScriptAndTheReadBack() throws Exception {
        try (Connector c = open()) {
            HttpPreview p = c.preview(new OperationRequest("firewall.rule.add", rule("protocol", "udp", "dport", 53,
                    "verdict", "accept"), Optional.empty())).orElseThrow();
            assertThat(p.method()).isEqualTo("SSH");
            assertThat(p.path()).isEqualTo("nft -e -a -f -");
            Map<?, ?> body = (Map<?, ?>) p.body().orElseThrow();
            assertThat(body.get("check")).isEqualTo("nft -c -f -");
            assertThat(body.get("stdin")).isEqualTo(List.of("add rule inet filter input udp dport 53 accept"));
            assertThat(body.get("verify")).isEqualTo("nft -a list chain inet filter input");
        }
        assertThat(LAB.get().listChain("input")).as("a preview applies nothing").doesNotContain("udp dport 53");
    }
}
