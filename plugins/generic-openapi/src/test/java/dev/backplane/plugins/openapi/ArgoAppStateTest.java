package dev.backplane.plugins.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ArgoAppStateTest {

    @Test
    void readsPhaseSyncHealthRevisionAndHistoryIdsWhetherNumbersOrStrings() {
        ArgoAppState s = ArgoAppState.of(Map.of("status", Map.of(
                "operationState", Map.of("phase", "Succeeded", "message", "successfully synced"),
                "sync", Map.of("status", "Synced", "revision", "4f7a2c1"),
                "health", Map.of("status", "Healthy"),
                "history", List.of(Map.of("id", 1), Map.of("id", "2"), Map.of("revision", "no id")))));
        assertThat(s.operationPending()).isFalse();
        assertThat(s.historyIds()).containsExactly(1L, 2L);
        assertThat(s.settled(ArgoAppState.Until.SYNCED_AND_HEALTHY)).isTrue();
        assertThat(s.message()).isEqualTo("successfully synced");
    }

    @Test
    void anythingUnexpectedReadsAsUnknownNotAsAnError() {
        ArgoAppState s = ArgoAppState.of("not an application");
        assertThat(s.describe()).isEqualTo("operation none, sync unknown, health unknown");
        assertThat(s.settled(ArgoAppState.Until.HEALTHY)).isFalse();
        assertThat(s.failed(ArgoAppState.Until.SYNCED_AND_HEALTHY)).isFalse();
        assertThat(s.historyIds()).isEmpty();
    }

    @Test
    void theHealthMessageStandsInWhenTheOperationHasNone() {
        ArgoAppState s = ArgoAppState.of(Map.of("status", Map.of("operationState", Map.of("phase", "Succeeded"),
                "health", Map.of("status", "Degraded", "message", "back-off restarting failed container"))));
        assertThat(s.failed(ArgoAppState.Until.SYNCED_AND_HEALTHY)).isTrue();
        assertThat(s.message()).contains("back-off");
    }
}
