package dev.backplane.kernel.governance;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class GrantsTest {

    private static Grants.Grant grant(String op, String target, String verdict) {
        return new Grants.Grant(UUID.randomUUID(), "p", "agent", op, target, verdict, Optional.empty(), false, false,
                "admin", Instant.now());
    }

    @Test
    void fnmatchPatterns() {
        assertThat(Grants.matches("k8s.pod.*", "k8s.pod.list")).isTrue();
        assertThat(Grants.matches("k8s.pod.*", "k8s.deployment.list")).isFalse();
        assertThat(Grants.matches("*.list", "k8s.pod.list")).isTrue();
        assertThat(Grants.matches("k8s.po?.list", "k8s.pod.list")).isTrue();
        assertThat(Grants.matches("k8s.[pn]od.list", "k8s.nod.list")).isTrue();
        assertThat(Grants.matches("k8s.[!p]od.list", "k8s.pod.list")).isFalse();
        assertThat(Grants.matches("k8s.pod.list", "k8sXpodXlist")).as("dots are literal").isFalse();
        assertThat(Grants.matches("(.*)", "anything")).as("regex syntax is literal").isFalse();
    }

    @Test
    void theMostSpecificGrantWinsAndDenyWinsTies() {
        String t = UUID.randomUUID().toString();
        var broad = grant("k8s.*", "*", "auto-execute");
        var narrow = grant("k8s.pod.delete", "*", "needs-approval");
        var targeted = grant("k8s.*", t, "deny");
        assertThat(Grants.pick(List.of(broad, narrow))).contains(narrow);
        assertThat(Grants.pick(List.of(broad, narrow, targeted))).as("an exact target beats any pattern").contains(targeted);
        var tieAllow = grant("k8s.pod.*", "*", "auto-execute");
        var tieDeny = grant("k8s.pod.?", "*", "deny");
        assertThat(Grants.specificity(tieAllow)).isEqualTo(Grants.specificity(grant("k8s.pod.x", "*", "deny")) - 1);
        var equalAllow = grant("k8s.pod.*", "*", "auto-execute");
        var equalDeny = grant("k8s.pod.*", "*", "deny");
        assertThat(Grants.pick(List.of(equalAllow, equalDeny))).contains(equalDeny);
        assertThat(Grants.pick(List.of(tieAllow, tieDeny))).isPresent();
    }
}
