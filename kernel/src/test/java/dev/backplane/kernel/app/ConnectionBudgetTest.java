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
        assertThat(b.warns()).isFalse();
        assertThat(ConnectionBudget.of(0, OptionalLong.of(1_048_576), OptionalLong.of(400)).api()).isEqualTo(523_992);
    }

    @Test
    void aConfiguredValueWithinTheLimitIsTaken() {
        ConnectionBudget most = ConnectionBudget.of(660, OptionalLong.of(1024), OptionalLong.of(300));
        assertThat(most.api()).isEqualTo(660);
        // more than the derived 266 leaves no room for an outbound connection per request: taken, with a warning
        assertThat(most.warns()).isTrue();
        assertThat(most.describe()).contains("at most 660 connections", "more than the 266 that leave room for an "
                + "outbound connection per request", "SVC_SERVER_MAX_CONNECTIONS").doesNotContain("that is few");
        ConnectionBudget few = ConnectionBudget.of(100, OptionalLong.of(1024), OptionalLong.of(300));
        assertThat(few.warns()).isTrue();
        assertThat(few.describe()).contains("at most 100 connections", "that is few").doesNotContain("more than the");
        ConnectionBudget within = ConnectionBudget.of(266, OptionalLong.of(1024), OptionalLong.of(300));
        assertThat(within.warns()).isFalse();
        assertThat(within.describe()).doesNotContain("more than the", "that is few");
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
        ConnectionBudget configured = ConnectionBudget.of(50, OptionalLong.empty(), OptionalLong.empty());
        assertThat(configured.api()).isEqualTo(50);
        assertThat(configured.overDerived()).isFalse();
    }
}
