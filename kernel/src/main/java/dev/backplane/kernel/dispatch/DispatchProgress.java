package dev.backplane.kernel.dispatch;

/**
 * Watches one call move through the pipeline, so a surface that can talk while a call runs (MCP's
 * progress notifications) can say where it is. It learns the step only — never the params, the
 * credential or the result — and is called on the calling thread, between the steps.
 */
@FunctionalInterface
public interface DispatchProgress {

    /**
     * The points a call passes, in this order. A denied or parked call reaches none; only a set result
     * (rows) is reduced.
     */
    enum Step {
        GATE_PASSED("policy gate passed"),
        CREDENTIAL_RESOLVED("credential resolved"),
        CALLING_TARGET("calling the target"),
        REDUCING_RESULT("the target answered; reducing the result");

        private final String description;

        Step(String description) {
            this.description = description;
        }

        /** What the step means, in words fit for an agent's progress line. */
        public String description() {
            return description;
        }
    }

    /** For callers nobody watches. */
    DispatchProgress NONE = step -> {
    };

    void reached(Step step);
}
