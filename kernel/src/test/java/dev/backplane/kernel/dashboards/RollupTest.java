package dev.backplane.kernel.dashboards;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The roll-up rule: worst member state, skip ignored, nothing (or only skips) unknown. */
class RollupTest {

    @Test
    void theWorstStateWinsAndSkipIsIgnored() {
        assertThat(Rollup.of(List.of())).isEqualTo("unknown");
        assertThat(Rollup.of(List.of("skip", "skip"))).isEqualTo("unknown");
        assertThat(Rollup.of(List.of("ok", "skip"))).isEqualTo("ok");
        assertThat(Rollup.of(List.of("ok", "unknown"))).isEqualTo("unknown");
        assertThat(Rollup.of(List.of("unknown", "degraded", "ok"))).isEqualTo("degraded");
        assertThat(Rollup.of(List.of("degraded", "critical", "skip"))).isEqualTo("critical");
        assertThat(Rollup.rank("critical")).isGreaterThan(Rollup.rank("degraded"));
    }
}
