package dev.backplane.kernel.sensors;

/**
 * What one assertion evaluation may spend: {@link Assertion#MAX_STEPS} steps and {@link Assertion#MAX_NANOS}
 * of time, so an evaluation over a huge result stops instead of running on.
 */
final class EvaluationBudget {

    private final long deadline = System.nanoTime() + Assertion.MAX_NANOS;
    private int steps;

    /** Spends {@code n} steps at once (scanning a long value), then one more. */
    void charge(int n) {
        steps = (int) Math.min(Integer.MAX_VALUE - 1L, (long) steps + n);
        step();
    }

    void step() {
        if (++steps > Assertion.MAX_STEPS) {
            throw new Exceeded(Assertion.MAX_STEPS + " steps");
        }
        if ((steps & 255) == 0 && System.nanoTime() > deadline) {
            throw new Exceeded(Assertion.MAX_NANOS / 1_000_000 + " ms");
        }
    }

    /** The budget ran out; the message says which limit. */
    static final class Exceeded extends RuntimeException {
        Exceeded(String what) {
            super(what, null, false, false);
        }
    }
}
