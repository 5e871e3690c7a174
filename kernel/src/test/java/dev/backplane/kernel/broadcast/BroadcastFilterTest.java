package dev.backplane.kernel.broadcast;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Which events a stream's filter lets through (what the hub decides for every open stream). */
class BroadcastFilterTest {

    private static BroadcastEvent event(String kind, Optional<String> opClass, Optional<String> target,
                                        List<String> targets, String principal, List<String> principals,
                                        Optional<String> workRef, String actorSub, Optional<Boolean> active) {
        return new BroadcastEvent(1, UUID.randomUUID(), Instant.now(), kind, "something", Optional.empty(), opClass,
                Optional.empty(), Optional.empty(), target, targets, Optional.empty(), principal, Optional.empty(),
                actorSub, Optional.empty(), Optional.empty(), Optional.empty(), workRef, Optional.empty(),
                Optional.empty(), Optional.empty(), active, Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.<Map<String, Object>>empty(), principals);
    }

    private static BroadcastEvent call(String opClass, String target, String principal) {
        return event("dispatch", Optional.of(opClass), Optional.of(target), List.of(), principal, List.of(),
                Optional.empty(), principal, Optional.empty());
    }

    private static BroadcastFilter filter(String opClass, String principal, String target) {
        return BroadcastFilter.stream(Optional.ofNullable(opClass), Optional.ofNullable(principal),
                Optional.ofNullable(target));
    }

    @Test
    void noFilterLetsEverythingThrough() {
        assertThat(BroadcastFilter.ALL.matches(call("write", "k8s-a", "alice"))).isTrue();
        assertThat(BroadcastFilter.ALL.matches(event("announcement", Optional.empty(), Optional.empty(), List.of(),
                "bob", List.of(), Optional.empty(), "bob", Optional.of(false)))).isTrue();
    }

    @Test
    void everyGivenFieldMustMatchExactly() {
        BroadcastEvent e = call("write", "k8s-a", "alice");
        assertThat(filter("write", null, null).matches(e)).isTrue();
        assertThat(filter("read", null, null).matches(e)).isFalse();
        assertThat(filter("write", "alice", "k8s-a").matches(e)).isTrue();
        assertThat(filter("write", "alice", "k8s-b").matches(e)).as("one field off is enough").isFalse();
        assertThat(filter(null, "Alice", null).matches(e)).as("exactly: case matters").isFalse();
        assertThat(filter("write", null, null).matches(event("ingest", Optional.empty(), Optional.empty(), List.of(),
                "svc", List.of(), Optional.empty(), "svc", Optional.empty()))).as("no op class never matches one")
                .isFalse();
    }

    @Test
    void targetAndPrincipalMatchAnyOfAnAggregatesOrAnnouncementsLists() {
        BroadcastEvent aggregate = event("aggregate", Optional.of("read"), Optional.empty(), List.of("k8s-a", "k8s-b"),
                "alice", List.of("alice", "bob"), Optional.empty(), "alice", Optional.empty());
        assertThat(filter(null, "bob", null).matches(aggregate)).isTrue();
        assertThat(filter(null, null, "k8s-b").matches(aggregate)).isTrue();
        assertThat(filter(null, "carol", null).matches(aggregate)).isFalse();
        assertThat(filter(null, null, "k8s-c").matches(aggregate)).isFalse();
    }

    @Test
    void workRefActorAndActiveOnlyFilterTheHistory() {
        BroadcastEvent open = event("announcement", Optional.of("write"), Optional.empty(), List.of(), "alice",
                List.of(), Optional.of("CHG-1"), "alice", Optional.of(true));
        BroadcastEvent closed = event("announcement", Optional.of("write"), Optional.empty(), List.of(), "alice",
                List.of(), Optional.of("CHG-1"), "alice", Optional.of(false));
        BroadcastFilter activeOfChange = new BroadcastFilter(Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.of("CHG-1"), Optional.of("alice"), true);
        assertThat(activeOfChange.matches(open)).isTrue();
        assertThat(activeOfChange.matches(closed)).isFalse();
        assertThat(activeOfChange.matches(call("write", "k8s-a", "alice"))).as("a call is never an open claim")
                .isFalse();
        BroadcastFilter otherActor = new BroadcastFilter(Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.of("CHG-1"), Optional.of("bob"), false);
        assertThat(otherActor.matches(open)).isFalse();
    }
}
