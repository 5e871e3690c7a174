package dev.backplane.kernel.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PgVectorSetupTest {

    @Test
    void versionsCompareByNumberNotByText() {
        assertThat(PgVectorSetup.compareVersions("0.8.0", PgVectorSetup.MIN_VERSION)).isZero();
        assertThat(PgVectorSetup.compareVersions("0.10.1", "0.8.0")).as("10 > 8, though '1' < '8'").isPositive();
        assertThat(PgVectorSetup.compareVersions("0.7.4", "0.8.0")).isNegative();
        assertThat(PgVectorSetup.compareVersions("0.8", "0.8.0")).as("a missing part counts as 0").isZero();
        assertThat(PgVectorSetup.compareVersions("0.8.1-dev", "0.8.0")).isPositive();
    }
}
