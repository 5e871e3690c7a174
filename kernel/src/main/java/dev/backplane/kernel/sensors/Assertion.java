package dev.backplane.kernel.sensors;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * A sensor's assertion: a small declarative rule language over an operation's result, parsed once into
 * an AST ({@link AssertionParser}, {@link Condition}) and evaluated with a step and time budget. There
 * is no script engine and no regular expression, so nothing in an assertion can run code, loop without
 * bound or backtrack.
 *
 * <pre>
 * {"rules": [{"name": "down", "state": "critical", "when": COND}, ...],
 *  "default": "ok", "on_error": "critical"}
 * COND := {"all": [COND, ...]} | {"any": [COND, ...]} | {"not": COND}
 *       | {"path": "/items/&#42;/status", "match": "any"|"all", "measure": "value"|"length"|"count",
 *          OP: value}          OP one of eq ne gt ge lt le contains in exists
 * </pre>
 *
 * Rules are tried in order; the first whose condition holds gives the state, else {@code default}
 * (default {@code ok}). A path is a JSON pointer into the result whose {@code *} segments select every
 * element; a leaf holds when any (or, with {@code match: all}, every) selected value satisfies the
 * operator, and never when the path selects nothing — except {@code exists: false}. {@code measure}
 * compares each value's length (string, array or object size) or the number of selected values instead
 * of the values. {@code on_error} is the state of a call that answered {@code error}.
 */
public final class Assertion {

    /** The largest assertion accepted, as JSON text. */
    public static final int MAX_CHARS = 8 * 1024;
    static final int MAX_RULES = 100;
    static final int MAX_DEPTH = 16;
    static final int MAX_CONDITIONS = 500;
    static final int MAX_PATH_SEGMENTS = 32;
    /** Values a single evaluation may visit before it gives up (state unknown). */
    static final int MAX_STEPS = 200_000;
    /** The longest string a {@code contains} looks for (each test scans the value for it). */
    static final int MAX_CONTAINS_CHARS = 256;
    /** Characters of a value a comparison scans per budget step. */
    static final int CHARS_PER_STEP = 64;
    /** How long a single evaluation may take before it gives up (state unknown). */
    static final long MAX_NANOS = 50_000_000L;

    /** One rule: its name (for the verdict's detail), the state it gives and the condition that must hold. */
    record Rule(String name, SensorState state, Condition when) {
    }

    /** The outcome of one evaluation: a state and why, in a short line. */
    public record Verdict(String state, String detail) {
    }

    private final List<Rule> rules;
    private final SensorState fallback;
    private final SensorState onError;
    private final JsonNode source;

    Assertion(List<Rule> rules, SensorState fallback, SensorState onError, JsonNode source) {
        this.rules = rules;
        this.fallback = fallback;
        this.onError = onError;
        this.source = source;
    }

    /** The assertion as it was written (what a sensor shows). */
    public JsonNode source() {
        return source;
    }

    /** The state of a call that answered {@code error}. */
    public String onError() {
        return onError.wire();
    }

    /** Parses an assertion; a problem is a 422 {@code invalid_assertion} naming where it is. */
    public static Assertion parse(JsonNode json) {
        return AssertionParser.parse(json);
    }

    /** Evaluates the rules against a call's result; a blown budget is state {@code unknown}. */
    public Verdict evaluate(JsonNode result) {
        EvaluationBudget budget = new EvaluationBudget();
        try {
            for (Rule r : rules) {
                if (Condition.holds(r.when(), result, budget)) {
                    return new Verdict(r.state().wire(), r.name() + " matched");
                }
            }
            return new Verdict(fallback.wire(), "no rule matched (default " + fallback.wire() + ")");
        } catch (EvaluationBudget.Exceeded e) {
            return new Verdict(SensorState.UNKNOWN.wire(), "the assertion exceeded its evaluation budget ("
                    + e.getMessage() + ")");
        }
    }
}
