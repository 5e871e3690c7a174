package dev.backplane.kernel.retrieval;

import dev.backplane.kernel.retrieval.ChunkStore.PartitionSize;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;

/**
 * Which large partitions are read ahead after a start or a deploy, so that their first searches find them
 * held: those of more than {@link SliceCache#WAIT_MAX_ROWS} chunks (the ones a search would not wait for),
 * largest first, one at a time and as far as half of the heap share the slices may take. Small partitions
 * are read on their first search, in well under a second.
 */
final class WarmUp {

    /** About the heap one chunk takes in a held vector slice (384 floats and bookkeeping). */
    static final long BYTES_PER_CHUNK = 1_600;

    private WarmUp() {
    }

    /** How many chunks the read-ahead may hold on a heap of {@code maxMemory} bytes. */
    static long budgetRows(long maxMemory) {
        return (long) (maxMemory * SliceCache.HEAP_SHARE / 2) / BYTES_PER_CHUNK;
    }

    /** The leading partitions of {@code largestFirst} whose chunks together fit in {@code budgetRows}. */
    static List<PartitionSize> within(List<PartitionSize> largestFirst, long budgetRows) {
        List<PartitionSize> out = new ArrayList<>();
        long rows = 0;
        for (PartitionSize p : largestFirst) {
            rows += p.chunks();
            if (rows > budgetRows) {
                break;
            }
            out.add(p);
        }
        return out;
    }

    /** Starts reading the large partitions of both indexes ({@code model}'s vectors), on a virtual thread (a failure is logged). */
    static void start(ChunkStore chunks, LexicalIndex lexical, VectorIndex vectors, String model) {
        Thread.ofVirtual().name("retrieval-warm-up").start(() -> {
            try {
                long budget = budgetRows(Runtime.getRuntime().maxMemory());
                for (PartitionSize p : within(chunks.largerThan(SliceCache.WAIT_MAX_ROWS, model), budget)) {
                    lexical.startWarming(p.partition(), p.surface());
                    vectors.startWarming(p.partition(), p.surface());
                }
            } catch (RuntimeException e) {
                System.getLogger(RetrievalEngine.class.getName()).log(Level.WARNING,
                        "retrieval: warming the large partitions failed; their first searches read them: " + e);
            }
        });
    }
}
