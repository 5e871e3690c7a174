package dev.backplane.kernel.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** {@link ConnectionBudget}: what the open-file limit leaves, and a setting that asks for more. */
class ConnectionBudgetTest {

    @Test
    void derivedFromWhatTheLimitLeaves() {
        // 1,024 files, 300 open, 64 for the management listener, 128 for what opens later: half of the 532 left, the
        // other half for one outbound connection per request
        ConnectionBudget b = ConnectionBudget.of(0, OptionalLong.of(1024), OptionalLong.of(300));
        assertThat(b.api()).isEqualTo(266);
        assertThat(b.describe()).contains("at most 266 connections", "may open 1024 files");
        assertThat(ConnectionBudget.of(0, OptionalLong.of(1_048_576), OptionalLong.of(400)).api()).isEqualTo(523_992);
    }

    @Test
    void aConfiguredValueWithinTheLimitIsTaken() {
        assertThat(ConnectionBudget.of(660, OptionalLong.of(1024), OptionalLong.of(300)).api()).isEqualTo(660);
        assertThat(ConnectionBudget.of(100, OptionalLong.of(1024), OptionalLong.of(300)).describe())
                .contains("at most 100 connections", "that is few");
    }

    @Test
    void aConfiguredValueOverTheLimitRefusesToStart() {
        assertThatThrownBy(() -> ConnectionBudget.of(661, OptionalLong.of(1024), OptionalLong.of(300)))
                .isInstanceOf(KernelConfig.ConfigException.class)
                .hasMessageContaining("server.max-connections=661")
                .hasMessageContaining("open-file limit is 1024, 300 are open")
                .hasMessageContaining("SVC_SERVER_MAX_CONNECTIONS");
    }

    @Test
    void anUnknownLimitLeavesTheListenerUnbounded() {
        assertThat(ConnectionBudget.of(0, OptionalLong.empty(), OptionalLong.empty()).api()).isEqualTo(-1);
        assertThat(ConnectionBudget.of(50, OptionalLong.empty(), OptionalLong.empty()).api()).isEqualTo(50);
    }
}
