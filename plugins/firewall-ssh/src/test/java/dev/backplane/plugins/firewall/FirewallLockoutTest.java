package dev.backplane.plugins.firewall;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.ErrorCode;
import java.net.InetAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The lock-out rules on their own: backplane 192.0.2.1:50123 managing 198.51.100.1 over port 22. */
class FirewallLockoutTest {

    private static final Management M = Management.parse("192.0.2.1 50123 198.51.100.1 22");

    @Test
    void rulesThatCouldCarryTheSessionAreTheOnesWhoseDeletionIsRefused() {
        for (String rule : List.of("tcp dport 22 accept", "ip saddr 192.0.2.1 accept", "ip saddr 192.0.2.0/24 accept",
                "ip daddr 198.51.100.1 accept", "tcp sport 22 accept", "tcp dport { 22, 80 } accept",
                "tcp dport 1-1024 accept", "ct state established,related accept", "ct state { established, related } accept",
                "ip saddr @mgmt accept", "iifname \"eth0\" accept", "meta l4proto tcp accept", "ip saddr != 10.0.0.0/8 accept",
                "tcp dport ssh accept", "tcp dport 50000-60000 accept", "ip saddr 192.0.2.1 jump mgmt", "counter accept")) {
            assertThat(Lockout.couldMatch(rule, M)).as(rule).isTrue();
            assertThat(Lockout.letsThrough(rule)).as(rule).isTrue();
        }
        for (String rule : List.of("udp dport 53 accept", "tcp dport 443 accept", "ip saddr 10.0.0.0/8 accept",
                "ip daddr 203.0.113.9 accept", "ct state invalid accept", "meta l4proto udp accept",
                "icmp type echo-request accept", "tcp dport { 80, 443 } accept", "ip6 saddr 2001:db8::/32 accept")) {
            assertThat(Lockout.couldMatch(rule, M)).as(rule).isFalse();
        }
        assertThat(Lockout.letsThrough("ip saddr 192.0.2.1 counter drop")).isFalse();
        assertThat(Lockout.letsThrough("tcp dport 22 reject with tcp reset")).isFalse();
    }

    @Test
    void eitherEndsAddressInAnElementCounts() {
        assertThat(Lockout.holdsAnEnd(FwNames.address("e", "192.0.2.1"), M)).isTrue();
        assertThat(Lockout.holdsAnEnd(FwNames.address("e", "198.51.100.1"), M)).as("the server's own address").isTrue();
        assertThat(Lockout.holdsAnEnd(FwNames.address("e", "198.51.100.0/24"), M)).isTrue();
        assertThat(Lockout.holdsAnEnd(FwNames.address("e", "203.0.113.0/24"), M)).isFalse();
    }

    @Test
    void theRulesUsingASetAreFoundByItsName() {
        String table = """
                table inet filter { # handle 1
                	set mgmt { # handle 3
                		type ipv4_addr
                		elements = { 192.0.2.1 }
                	}
                	chain input { # handle 2
                		type filter hook input priority filter; policy drop;
                		ip saddr @mgmt accept # handle 4
                		ip saddr @mgmt2 drop comment "accept" # handle 5
                	}
                }
                """;
        assertThat(Lockout.rulesUsing(table, "mgmt")).containsExactly("ip saddr @mgmt accept");
        assertThat(Lockout.rulesUsing(table, "mgmt2")).containsExactly("ip saddr @mgmt2 drop");
    }

    @Test
    void sshConnectionIsReadAsLiteralsOnly() throws Exception {
        assertThat(M.client()).isEqualTo(InetAddress.getByAddress(new byte[] {(byte) 192, 0, 2, 1}));
        assertThat(M.clientPort()).isEqualTo(50123);
        assertThat(Management.parse("2001:db8::1 40000 2001:db8::2 2222").serverPort()).isEqualTo(2222);
        for (String bad : List.of("", "beef 1 cafe 22", "localhost 1 localhost 22", "192.0.2.1 x 198.51.100.1 22",
                "192.0.2.1 1 198.51.100.1 70000")) {
            ConnectorException e = catchThrowableOfType(ConnectorException.class, () -> Management.parse(bad));
            assertThat(e).as(bad).isNotNull();
            assertThat(e.code()).isEqualTo(ErrorCode.CONNECTOR_ERROR);
        }
    }
}
