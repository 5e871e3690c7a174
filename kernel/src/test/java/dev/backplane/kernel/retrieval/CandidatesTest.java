package dev.backplane.kernel.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class CandidatesTest {

    @Test
    void candidatesAllowEverythingOrOnlyTheirSet() {
        UUID in = UUID.randomUUID();
        UUID out = UUID.randomUUID();
        assertThat(Candidates.all().allows(out)).isTrue();
        assertThat(Candidates.only(Set.of(in)).allows(in)).isTrue();
        assertThat(Candidates.only(Set.of(in)).allows(out)).isFalse();
    }

    @Test
    void exceptAllowsAllButItsSet() {
        UUID hidden = UUID.randomUUID();
        assertThat(Candidates.except(Set.of(hidden)).allows(hidden)).isFalse();
        assertThat(Candidates.except(Set.of(hidden)).allows(UUID.randomUUID())).isTrue();
        assertThat(Candidates.except(Set.of())).as("nothing to leave out").isInstanceOf(Candidates.All.class);
    }
}
