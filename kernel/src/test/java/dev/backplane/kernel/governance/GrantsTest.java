package dev.backplane.kernel.governance;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GrantsTest {

    private static Grants.Grant grant(String op, String target, String verdict) {
        return new Grants.Grant(UUID.randomUUID(), "p", "agent", op, target, verdict, Optional.empty(), false, false,
                "admin", Instant.now());
    }

    @ParameterizedTest(name = "{0} ~ {1}: {2}")
    @CsvSource(delimiter = '|', textBlock = """
            k8s.pod.*       | k8s.pod.list        | true  |
            k8s.pod.*       | k8s.deployment.list | false |
            *.list          | k8s.pod.list        | true  |
            k8s.po?.list    | k8s.pod.list        | true  |
            k8s.[pn]od.list | k8s.nod.list        | true  |
            k8s.[!p]od.list | k8s.pod.list        | false |
            k8s.pod.list    | k8sXpodXlist        | false | dots are literal
            (.*)            | anything            | false | regex syntax is literal
            """)
    void fnmatchPatterns(String pattern, String opId, boolean matches, String why) {
        assertThat(Grants.matches(pattern, opId)).as("%s ~ %s %s", pattern, opId, why == null ? "" : why).isEqualTo(matches);
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
