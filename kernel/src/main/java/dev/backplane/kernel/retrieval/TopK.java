package dev.backplane.kernel.retrieval;

/**
 * The {@code k} best of many scored ints (document numbers), in a min-heap of primitives: no object and no
 * comparator call per offer. A search offers every matching document of a slice (tens of thousands for a common
 * word at 100k entries); a {@code PriorityQueue} of records with a boxed comparator cost the kb bench's lexical leg
 * a sixth of its CPU.
 */
final class TopK {

    private final int k;
    private final float[] scores;
    private final int[] ids;
    private int size;

    TopK(int k) {
        this.k = Math.max(1, k);
        this.scores = new float[this.k];
        this.ids = new int[this.k];
    }

    /** Whether {@code score} would enter: the heap is not full, or it beats the worst kept. */
    boolean admits(float score) {
        return size < k || score > scores[0];
    }

    /** Keeps {@code id} if {@code score} is among the best {@code k} so far (ties with the worst kept stay out). */
    void offer(int id, float score) {
        if (size < k) {
            int at = size++;
            while (at > 0) {
                int parent = (at - 1) >>> 1;
                if (scores[parent] <= score) {
                    break;
                }
                scores[at] = scores[parent];
                ids[at] = ids[parent];
                at = parent;
            }
            scores[at] = score;
            ids[at] = id;
        } else if (score > scores[0]) {
            int at = 0;
            while (true) {
                int child = 2 * at + 1;
                if (child >= size) {
                    break;
                }
                if (child + 1 < size && scores[child + 1] < scores[child]) {
                    child++;
                }
                if (scores[child] >= score) {
                    break;
                }
                scores[at] = scores[child];
                ids[at] = ids[child];
                at = child;
            }
            scores[at] = score;
            ids[at] = id;
        }
    }

    int size() {
        return size;
    }

    /** Each kept id with its score, in no particular order. */
    void forEach(Kept kept) {
        for (int i = 0; i < size; i++) {
            kept.accept(ids[i], scores[i]);
        }
    }

    @FunctionalInterface
    interface Kept {
        void accept(int id, float score);
    }
}
