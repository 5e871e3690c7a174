package dev.backplane.kernel.broadcast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.backplane.kernel.errors.DomainException;
import dev.backplane.plugin.api.OpClass;
import java.util.Collections;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** What an announcement must hold, its defaults, and which claim it belongs to. */
class AnnouncementsTest {

    private static BroadcastFeed.Announcement announcement(String activity, String phase, String plannedOpClass,
                                                           String runId, String target, List<String> targets,
                                                           Integer ttl, String workRef) {
        return new BroadcastFeed.Announcement(activity, phase, plannedOpClass, runId, null, target, targets, ttl,
                workRef);
    }

    private static BroadcastFeed.Announcement plain(String activity) {
        return announcement(activity, null, null, null, null, null, null, null);
    }

    private static void refused(BroadcastFeed.Announcement a, String field) {
        assertThatThrownBy(() -> Announcements.check("alice", a)).isInstanceOfSatisfying(DomainException.class, e -> {
            assertThat(e.code()).isEqualTo("invalid_announcement");
            assertThat(e.extras()).containsEntry("field", field);
        });
    }

    @Test
    void defaultsAreAStartThatLastsAnHourWithoutPlannedClass() {
        Announcements.Claim c = Announcements.check("alice", plain("rolling the deployment"));
        assertThat(c.phase()).isEqualTo(AnnouncementPhase.START);
        assertThat(c.phase().closesClaim()).isFalse();
        assertThat(c.ttlMinutes()).isEqualTo(60);
        assertThat(c.plannedOpClass()).isEmpty();
        assertThat(c.targets()).isEmpty();
        assertThat(c.soleTarget()).isEmpty();
    }

    @Test
    void onlyACompletionClosesTheClaim() {
        assertThat(Announcements.check("alice", announcement("x", "completion", null, null, null, null, null, null))
                .phase().closesClaim()).isTrue();
        assertThat(Announcements.check("alice", announcement("x", "update", null, null, null, null, null, null))
                .phase().closesClaim()).isFalse();
        refused(announcement("x", "done", null, null, null, null, null, null), "phase");
        refused(announcement("x", "Completion", null, null, null, null, null, null), "phase");
    }

    @Test
    void theClaimIsTheAuthorAndItsRunIdElseWorkRefElseActivity() {
        assertThat(Announcements.check("alice", announcement("x", null, null, "run-7", null, null, null, "CHG-1"))
                .claimKey()).isEqualTo("alice\u001frun-7");
        assertThat(Announcements.check("alice", announcement("x", null, null, null, null, null, null, "CHG-1"))
                .claimKey()).isEqualTo("alice\u001fCHG-1");
        assertThat(Announcements.check("alice", plain("rolling")).claimKey()).isEqualTo("alice\u001frolling");
        assertThat(Announcements.check("bob", plain("rolling")).claimKey())
                .isNotEqualTo(Announcements.check("alice", plain("rolling")).claimKey());
    }

    @Test
    void thePlannedClassIsReadIgnoringCaseAndMustBeAnOpClass() {
        assertThat(Announcements.check("alice", announcement("x", null, "WRITE", null, null, null, null, null))
                .plannedOpClass()).contains(OpClass.WRITE);
        refused(announcement("x", null, "admin", null, null, null, null, null), "planned_op_class");
    }

    @Test
    void targetsStartWithTheTargetWithoutRepeatsAndAreBounded() {
        Announcements.Claim c = Announcements.check("alice", announcement("x", null, null, null, "k8s-a",
                List.of("k8s-b", "k8s-a", "", "k8s-b"), null, null));
        assertThat(c.targets()).containsExactly("k8s-a", "k8s-b");
        assertThat(c.soleTarget()).isEmpty();
        assertThat(Announcements.check("alice", announcement("x", null, null, null, null, List.of("k8s-a"), null,
                null)).soleTarget()).contains("k8s-a");
        List<String> fifty = IntStream.range(0, 50).mapToObj(i -> "t" + i).toList();
        assertThat(Announcements.check("alice", announcement("x", null, null, null, null, fifty, null, null))
                .targets()).hasSize(50);
        List<String> fiftyOne = IntStream.range(0, 51).mapToObj(i -> "t" + i).toList();
        refused(announcement("x", null, null, null, null, fiftyOne, null, null), "targets");
        refused(announcement("x", null, null, null, null, Collections.nCopies(1, "a\nb"), null, null), "targets");
    }

    @Test
    void fieldsAreBoundedAndFreeOfControlCharacters() {
        refused(plain(null), "activity");
        refused(plain("  "), "activity");
        refused(plain("x".repeat(501)), "activity");
        assertThat(Announcements.check("alice", plain("x".repeat(500))).activity()).hasSize(500);
        refused(plain("tab\there"), "activity");
        refused(announcement("x", null, null, "r".repeat(129), null, null, null, null), "run_id");
        refused(announcement("x", null, null, null, "t\u007f", null, null, null), "target");
        refused(announcement("x", null, null, null, null, null, 0, null), "ttl_minutes");
        refused(announcement("x", null, null, null, null, null, 1441, null), "ttl_minutes");
        assertThat(Announcements.check("alice", announcement("x", null, null, null, null, null, 1440, null))
                .ttlMinutes()).isEqualTo(1440);
        assertThat(Announcements.check("alice", new BroadcastFeed.Announcement("x", null, null, null, "all nodes", null,
                null, null, null)).scope()).contains("all nodes");
    }
}
