package dev.backplane.kernel.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.backplane.kernel.retrieval.ChunkStore.PartitionSize;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Which large partitions are read ahead after a start: the largest first, as far as the budget goes. */
class WarmUpTest {

    private static PartitionSize size(long chunks) {
        return new PartitionSize(UUID.randomUUID(), "kb", chunks);
    }

    @Test
    void theLargestPartitionsAreReadUntilTheBudgetIsSpent() {
        PartitionSize a = size(60_000);
        PartitionSize b = size(30_000);
        PartitionSize c = size(25_000);
        assertThat(WarmUp.within(List.of(a, b, c), 90_000)).as("exactly the budget still fits").containsExactly(a, b);
        assertThat(WarmUp.within(List.of(a, b, c), 89_999)).containsExactly(a);
        assertThat(WarmUp.within(List.of(a, b, c), 59_999)).as("the first past the budget stops the read-ahead")
                .isEmpty();
    }

    @Test
    void theBudgetIsHalfTheSlicesHeapShare() {
        long heap = 1_600_000_000L;
        assertThat(WarmUp.budgetRows(heap)).isEqualTo((long) (heap * SliceCache.HEAP_SHARE / 2) / WarmUp.BYTES_PER_CHUNK)
                .isEqualTo(100_000);
    }
}
