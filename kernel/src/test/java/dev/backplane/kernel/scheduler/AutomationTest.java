package dev.backplane.kernel.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** What the console's home page lists as failing: an automation whose last started run failed, nothing else. */
class AutomationTest {

    @Test
    void onlyAFailedLastRunIsFailing() {
        assertThat(trigger(Optional.of("failed")).failing()).isTrue();
        for (String other : List.of("succeeded", "running", "pending", "awaiting_approval", "cancelled")) {
            assertThat(trigger(Optional.of(other)).failing()).as(other).isFalse();
        }
        assertThat(trigger(Optional.empty()).failing()).as("never fired").isFalse();
        // a sensor's last state is a reading of its target: critical is the dashboard's news, not a broken automation
        Automation sensor = new Automation("sensor", UUID.randomUUID().toString(), "disk, every 60 s", "active",
                "read:k8s list_nodes on prod", Optional.of(Instant.now()), Optional.empty(), Optional.of("critical"));
        assertThat(sensor.failing()).isFalse();
    }

    @Test
    void theListOfFailingAutomationsKeepsOnlyThoseAcrossSources() {
        Automation failed = trigger(Optional.of("failed"));
        Automation fine = trigger(Optional.of("succeeded"));
        Automations automations = new Automations(List.of((tenant, limit) -> List.of(fine, failed)));
        assertThat(automations.failing(UUID.randomUUID())).containsExactly(failed);
    }

    private static Automation trigger(Optional<String> lastRunStatus) {
        return new Automation("event-trigger", UUID.randomUUID().toString(), "status = firing", "active",
                "agent:triage", lastRunStatus.map(s -> Instant.now()), lastRunStatus.map(s -> UUID.randomUUID().toString()),
                lastRunStatus);
    }
}
