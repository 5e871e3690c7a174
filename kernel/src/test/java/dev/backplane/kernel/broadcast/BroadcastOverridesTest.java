package dev.backplane.kernel.broadcast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.backplane.kernel.errors.DomainException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Which override decides how a call is shown (matching, precedence) and what a window is keyed on. */
class BroadcastOverridesTest {

    private static final UUID TENANT = UUID.randomUUID();

    private static BroadcastOverrides.Override rule(String pattern, String detail, String field, String value) {
        return new BroadcastOverrides.Override(UUID.randomUUID(), pattern, detail, field, value, "admin", Instant.EPOCH);
    }

    private static Activity call(String opId, String target, Optional<String> namespace) {
        return Activity.dispatch(TENANT, Instant.now(), "alice", "human", "k8s", opId, Optional.of("read"), target,
                namespace, "ok", Optional.empty(), 12, Optional.empty(), Optional.empty());
    }

    @Test
    void aScopedRuleBeatsAnOpWideOneHoweverLiteralItsPattern() {
        BroadcastOverrides.Override opWide = rule("k8s.pods.list", "full", "", "");
        BroadcastOverrides.Override scoped = rule("k8s.*", "aggregate", "namespace", "prod");
        Activity inProd = call("k8s.pods.list", "cluster-a", Optional.of("prod"));

        assertThat(BroadcastOverrides.applicable(inProd, () -> List.of(opWide, scoped))).contains(scoped);
        assertThat(BroadcastOverrides.applicable(inProd, () -> List.of(scoped, opWide))).contains(scoped);
        Activity inDev = call("k8s.pods.list", "cluster-a", Optional.of("dev"));
        assertThat(BroadcastOverrides.applicable(inDev, () -> List.of(opWide, scoped)))
                .as("the scoped rule does not match another namespace").contains(opWide);
    }

    @Test
    void amongEquallyScopedRulesTheMoreLiteralPatternWinsThenTheFirst() {
        BroadcastOverrides.Override broad = rule("k8s.*", "full", "", "");
        BroadcastOverrides.Override narrow = rule("k8s.pods.*", "aggregate", "", "");
        Activity a = call("k8s.pods.list", "cluster-a", Optional.empty());
        assertThat(BroadcastOverrides.applicable(a, () -> List.of(broad, narrow))).contains(narrow);
        assertThat(BroadcastOverrides.applicable(a, () -> List.of(narrow, broad))).contains(narrow);

        BroadcastOverrides.Override twin = rule("k8s.pods.*", "full", "", "");
        assertThat(BroadcastOverrides.applicable(a, () -> List.of(narrow, twin))).contains(narrow);
        assertThat(BroadcastOverrides.applicable(a, () -> List.of(twin, narrow))).contains(twin);
    }

    @Test
    void aTargetScopedRuleMatchesOnlyThatTargetAndNoRuleMeansNone() {
        BroadcastOverrides.Override onA = rule("*", "aggregate", "target_name", "cluster-a");
        assertThat(onA.matches(call("dns.lookup", "cluster-a", Optional.empty()))).isTrue();
        assertThat(onA.matches(call("dns.lookup", "cluster-b", Optional.empty()))).isFalse();
        assertThat(BroadcastOverrides.applicable(call("dns.lookup", "cluster-b", Optional.empty()),
                () -> List.of(onA))).isEmpty();
        assertThat(rule("k8s.*", "full", "", "").matches(call("dns.lookup", "cluster-a", Optional.empty())))
                .as("the op id glob must match").isFalse();
        assertThat(rule("*", "full", "namespace", "prod").matches(call("k8s.pods.list", "c", Optional.empty())))
                .as("a call without a namespace never matches a namespace rule").isFalse();
    }

    @Test
    void onlyCallsAreSubjectToRulesAndOtherActivitiesDoNotReadThem() {
        AtomicInteger reads = new AtomicInteger();
        Activity ingest = Activity.of(TENANT, Activity.Kind.INGEST, "event x", "svc", "svc", Optional.of("ok"));
        assertThat(BroadcastOverrides.applicable(ingest, () -> {
            reads.incrementAndGet();
            return List.of(rule("*", "aggregate", "", ""));
        })).isEmpty();
        assertThat(reads).hasValue(0);
    }

    @Test
    void aWindowIsKeyedOnTheRulesScopeValueAndOnlyAggregateAggregates() {
        Activity a = call("k8s.pods.list", "cluster-a", Optional.of("prod"));
        assertThat(rule("*", "aggregate", "namespace", "prod").scopeOf(a)).isEqualTo("prod");
        assertThat(rule("*", "aggregate", "target_name", "cluster-a").scopeOf(a)).isEqualTo("cluster-a");
        assertThat(rule("*", "aggregate", "", "").scopeOf(a)).isEmpty();
        assertThat(rule("*", "aggregate", "", "").aggregate()).isTrue();
        assertThat(rule("*", "full", "", "").aggregate()).isFalse();
    }

    @Test
    void aPatternIsAGlobNeverARegularExpression() {
        assertThat(BroadcastOverrides.checkedPattern("k8s.pods.[a-z]*")).isEqualTo("k8s.pods.[a-z]*");
        for (String bad : List.of("k8s.(pods|nodes)", "^k8s", "k8s.+", "", " ", "x".repeat(257), "k8s pods")) {
            assertThatThrownBy(() -> BroadcastOverrides.checkedPattern(bad)).as(bad)
                    .isInstanceOfSatisfying(DomainException.class,
                            e -> assertThat(e.code()).isEqualTo("invalid_op_id_pattern"));
        }
    }
}
