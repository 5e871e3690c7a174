package dev.backplane.kernel.sensors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.backplane.kernel.util.JsonMapping;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A sensor's assertion: a small declarative rule language over an operation's result, parsed once into
 * an AST and evaluated with a step and time budget. There is no script engine and no regular expression,
 * so nothing in an assertion can run code, loop without bound or backtrack.
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

    static final Set<String> STATES = Set.of("ok", "degraded", "critical", "unknown", "skip");
    private static final Set<String> OPS = Set.of("eq", "ne", "gt", "ge", "lt", "le", "contains", "in", "exists");

    private sealed interface Cond permits All, Any, Not, Leaf {
    }

    private record All(List<Cond> parts) implements Cond {
    }

    private record Any(List<Cond> parts) implements Cond {
    }

    private record Not(Cond inner) implements Cond {
    }

    private record Leaf(List<String> path, boolean every, String measure, String op, JsonNode operand) implements Cond {
    }

    private record Rule(String name, String state, Cond when) {
    }

    /** The outcome of one evaluation: a state and why, in a short line. */
    public record Verdict(String state, String detail) {
    }

    private final List<Rule> rules;
    private final String fallback;
    private final String onError;
    private final JsonNode source;

    private Assertion(List<Rule> rules, String fallback, String onError, JsonNode source) {
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
        return onError;
    }

    /** Parses an assertion; a problem is a 422 {@code invalid_assertion} naming where it is. */
    public static Assertion parse(JsonNode json) {
        if (json == null || json.isNull() || json.isMissingNode()) {
            throw invalid("assertion is required", "");
        }
        if (JsonMapping.write(json).length() > MAX_CHARS) {
            throw invalid("assertion is larger than " + MAX_CHARS + " characters of JSON", "");
        }
        if (!json.isObject()) {
            throw invalid("assertion must be a JSON object {rules, default, on_error}", "");
        }
        only(json, Set.of("rules", "default", "on_error"), "");
        JsonNode rulesNode = json.path("rules");
        if (!rulesNode.isArray() || rulesNode.isEmpty() || rulesNode.size() > MAX_RULES) {
            throw invalid("rules must be an array of 1.." + MAX_RULES + " rules", "/rules");
        }
        int[] budget = {MAX_CONDITIONS};
        List<Rule> rules = new ArrayList<>();
        for (int i = 0; i < rulesNode.size(); i++) {
            JsonNode r = rulesNode.get(i);
            String at = "/rules/" + i;
            if (!r.isObject()) {
                throw invalid("a rule must be an object {name, state, when}", at);
            }
            only(r, Set.of("name", "state", "when"), at);
            String name = r.has("name") ? text(r.get("name"), at + "/name", 200) : "rule " + (i + 1);
            rules.add(new Rule(name, state(r.get("state"), at + "/state"), cond(r.get("when"), at + "/when", 1, budget)));
        }
        String fallback = json.has("default") ? state(json.get("default"), "/default") : "ok";
        String onError = json.has("on_error") ? state(json.get("on_error"), "/on_error") : "critical";
        return new Assertion(List.copyOf(rules), fallback, onError, json.deepCopy());
    }

    private static Cond cond(JsonNode n, String at, int depth, int[] budget) {
        if (depth > MAX_DEPTH) {
            throw invalid("conditions nest deeper than " + MAX_DEPTH, at);
        }
        if (--budget[0] < 0) {
            throw invalid("more than " + MAX_CONDITIONS + " conditions", at);
        }
        if (n == null || !n.isObject() || n.isEmpty()) {
            throw invalid("a condition must be an object: all, any, not or a path test", at);
        }
        if (n.has("all") || n.has("any")) {
            String key = n.has("all") ? "all" : "any";
            only(n, Set.of(key), at);
            JsonNode parts = n.get(key);
            if (!parts.isArray() || parts.isEmpty()) {
                throw invalid(key + " must be a non-empty array of conditions", at + "/" + key);
            }
            List<Cond> out = new ArrayList<>();
            for (int i = 0; i < parts.size(); i++) {
                out.add(cond(parts.get(i), at + "/" + key + "/" + i, depth + 1, budget));
            }
            return key.equals("all") ? new All(List.copyOf(out)) : new Any(List.copyOf(out));
        }
        if (n.has("not")) {
            only(n, Set.of("not"), at);
            return new Not(cond(n.get("not"), at + "/not", depth + 1, budget));
        }
        return leaf(n, at);
    }

    private static Leaf leaf(JsonNode n, String at) {
        List<String> ops = new ArrayList<>();
        n.fieldNames().forEachRemaining(f -> {
            if (OPS.contains(f)) {
                ops.add(f);
            } else if (!Set.of("path", "match", "measure").contains(f)) {
                throw invalid("unknown key '" + f + "' (a path test has path, match, measure and one of " + OPS + ")",
                        at);
            }
        });
        if (ops.size() != 1) {
            throw invalid("a path test needs exactly one operator of " + OPS, at);
        }
        String op = ops.getFirst();
        String pathText = n.has("path") ? text(n.get("path"), at + "/path", 1024) : null;
        if (pathText == null || !(pathText.isEmpty() || pathText.startsWith("/"))) {
            throw invalid("path must be a JSON pointer ('' for the whole result, '/items/*/status')", at + "/path");
        }
        List<String> path = segments(pathText);
        if (path.size() > MAX_PATH_SEGMENTS) {
            throw invalid("path has more than " + MAX_PATH_SEGMENTS + " segments", at + "/path");
        }
        String match = n.has("match") ? text(n.get("match"), at + "/match", 10) : "any";
        if (!match.equals("any") && !match.equals("all")) {
            throw invalid("match must be any or all", at + "/match");
        }
        String measure = n.has("measure") ? text(n.get("measure"), at + "/measure", 10) : "value";
        if (!Set.of("value", "length", "count").contains(measure)) {
            throw invalid("measure must be value, length or count", at + "/measure");
        }
        JsonNode operand = n.get(op);
        switch (op) {
            case "exists" -> {
                if (!operand.isBoolean()) {
                    throw invalid("exists takes true or false", at + "/exists");
                }
            }
            case "in" -> {
                if (!operand.isArray()) {
                    throw invalid("in takes an array of values", at + "/in");
                }
            }
            case "gt", "ge", "lt", "le" -> {
                if (!operand.isNumber() && !operand.isTextual()) {
                    throw invalid(op + " takes a number or a string", at + "/" + op);
                }
            }
            default -> {
                if (!operand.isValueNode() && !op.equals("contains")) {
                    throw invalid(op + " takes a string, number, boolean or null", at + "/" + op);
                }
                if (op.equals("contains") && (operand.isTextual() && operand.asText().length() > MAX_CONTAINS_CHARS
                        || operand.isContainerNode() && operand.toString().length() > MAX_CONTAINS_CHARS)) {
                    throw invalid("contains takes at most " + MAX_CONTAINS_CHARS + " characters", at + "/" + op);
                }
            }
        }
        if (!measure.equals("value") && !operand.isNumber() && !op.equals("in") && !op.equals("exists")) {
            throw invalid("measure " + measure + " compares a number", at + "/" + op);
        }
        return new Leaf(path, match.equals("all"), measure, op, operand);
    }

    private static List<String> segments(String pointer) {
        if (pointer.isEmpty()) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        for (String raw : pointer.substring(1).split("/", -1)) {
            out.add(raw.replace("~1", "/").replace("~0", "~"));
        }
        return List.copyOf(out);
    }

    private static String state(JsonNode n, String at) {
        if (n == null || !n.isTextual() || !STATES.contains(n.asText())) {
            throw invalid("state must be one of ok, degraded, critical, unknown, skip", at);
        }
        return n.asText();
    }

    private static String text(JsonNode n, String at, int max) {
        if (n == null || !n.isTextual() || n.asText().length() > max) {
            throw invalid("must be a string of at most " + max + " characters", at);
        }
        return n.asText();
    }

    private static void only(JsonNode n, Set<String> allowed, String at) {
        n.fieldNames().forEachRemaining(f -> {
            if (!allowed.contains(f)) {
                throw invalid("unknown key '" + f + "' (allowed: " + allowed + ")", at);
            }
        });
    }

    private static dev.backplane.kernel.errors.DomainException invalid(String message, String at) {
        return SensorErrors.INVALID_ASSERTION.error("assertion" + (at.isEmpty() ? "" : " at " + at) + ": " + message,
                Map.of("field", "assertion", "at", at));
    }

    /** Evaluates the rules against a call's result; a blown budget is state {@code unknown}. */
    public Verdict evaluate(JsonNode result) {
        Budget budget = new Budget();
        try {
            for (Rule r : rules) {
                if (holds(r.when(), result, budget)) {
                    return new Verdict(r.state(), r.name() + " matched");
                }
            }
            return new Verdict(fallback, "no rule matched (default " + fallback + ")");
        } catch (BudgetExceeded e) {
            return new Verdict("unknown", "the assertion exceeded its evaluation budget (" + e.getMessage() + ")");
        }
    }

    private boolean holds(Cond c, JsonNode root, Budget budget) {
        budget.step();
        return switch (c) {
            case All a -> a.parts().stream().allMatch(p -> holds(p, root, budget));
            case Any a -> a.parts().stream().anyMatch(p -> holds(p, root, budget));
            case Not n -> !holds(n.inner(), root, budget);
            case Leaf l -> leafHolds(l, root, budget);
        };
    }

    private static boolean leafHolds(Leaf l, JsonNode root, Budget budget) {
        List<JsonNode> selected = new ArrayList<>();
        select(root, l.path(), 0, selected, budget);
        if (l.op().equals("exists")) {
            return selected.isEmpty() != l.operand().asBoolean();
        }
        if (l.measure().equals("count")) {
            return compare(l.op(), JsonMapping.mapper().getNodeFactory().numberNode(selected.size()), l.operand());
        }
        if (selected.isEmpty()) {
            return false;
        }
        for (JsonNode v : selected) {
            budget.step();
            JsonNode measured = l.measure().equals("length") ? length(v) : v;
            if (measured != null) {
                budget.charge(scanned(measured)); // a long string or a big array costs what scanning it costs
            }
            boolean ok = measured != null && compare(l.op(), measured, l.operand());
            if (ok && !l.every()) {
                return true;
            }
            if (!ok && l.every()) {
                return false;
            }
        }
        return l.every();
    }

    private static void select(JsonNode node, List<String> path, int i, List<JsonNode> out, Budget budget) {
        budget.step();
        if (node == null || node.isMissingNode()) {
            return;
        }
        if (i == path.size()) {
            out.add(node);
            return;
        }
        String seg = path.get(i);
        if (seg.equals("*")) {
            Iterator<JsonNode> it = node.isContainerNode() ? node.elements() : java.util.Collections.emptyIterator();
            while (it.hasNext()) {
                select(it.next(), path, i + 1, out, budget);
            }
        } else if (node.isArray()) {
            int idx = index(seg);
            if (idx >= 0) {
                select(node.get(idx), path, i + 1, out, budget);
            }
        } else if (node.isObject()) {
            select(node.get(seg), path, i + 1, out, budget);
        }
    }

    private static int scanned(JsonNode v) {
        if (v.isTextual()) {
            return v.asText().length() / CHARS_PER_STEP;
        }
        return v.isContainerNode() ? v.size() : 0;
    }

    private static int index(String seg) {
        if (seg.isEmpty() || seg.length() > 9 || !seg.chars().allMatch(Character::isDigit)) {
            return -1;
        }
        return Integer.parseInt(seg);
    }

    private static JsonNode length(JsonNode v) {
        int n;
        if (v.isTextual()) {
            n = v.asText().length();
        } else if (v.isContainerNode()) {
            n = v.size();
        } else {
            return null;
        }
        return JsonMapping.mapper().getNodeFactory().numberNode(n);
    }

    private static boolean compare(String op, JsonNode v, JsonNode operand) {
        return switch (op) {
            case "eq" -> same(v, operand);
            case "ne" -> !same(v, operand);
            case "in" -> {
                for (JsonNode o : operand) {
                    if (same(v, o)) {
                        yield true;
                    }
                }
                yield false;
            }
            case "contains" -> contains(v, operand);
            default -> {
                Optional<Integer> cmp = order(v, operand);
                yield cmp.isPresent() && switch (op) {
                    case "gt" -> cmp.get() > 0;
                    case "ge" -> cmp.get() >= 0;
                    case "lt" -> cmp.get() < 0;
                    default -> cmp.get() <= 0;
                };
            }
        };
    }

    /** A number that has a decimal value: NaN and the infinities (a double result may hold them) do not. */
    private static boolean finite(JsonNode n) {
        return !(n.isDouble() || n.isFloat()) || Double.isFinite(n.doubleValue());
    }

    private static boolean same(JsonNode a, JsonNode b) {
        if (a.isNumber() && b.isNumber()) {
            if (!finite(a) || !finite(b)) {
                return false; // a non-finite number matches nothing (not even itself)
            }
            return a.decimalValue().compareTo(b.decimalValue()) == 0;
        }
        return a.equals(b);
    }

    private static boolean contains(JsonNode v, JsonNode operand) {
        if (v.isTextual() && operand.isTextual()) {
            return v.asText().contains(operand.asText());
        }
        if (v.isArray()) {
            for (JsonNode e : v) {
                if (same(e, operand)) {
                    return true;
                }
            }
        }
        if (v.isObject() && operand.isObject()) {
            ObjectNode o = (ObjectNode) v;
            for (var it = operand.properties().iterator(); it.hasNext(); ) {
                var e = it.next();
                if (!o.has(e.getKey()) || !same(o.get(e.getKey()), e.getValue())) {
                    return false;
                }
            }
            return true;
        }
        return false;
    }

    private static Optional<Integer> order(JsonNode v, JsonNode operand) {
        if (v.isNumber() && operand.isNumber()) {
            if (!finite(v) || !finite(operand)) {
                return Optional.empty(); // not ordered: gt/ge/lt/le do not match
            }
            BigDecimal a = v.decimalValue();
            return Optional.of(a.compareTo(operand.decimalValue()));
        }
        if (v.isTextual() && operand.isTextual()) {
            return Optional.of(Integer.signum(v.asText().compareTo(operand.asText())));
        }
        return Optional.empty();
    }

    /** Counts steps and watches the clock: an evaluation over a huge result stops instead of running on. */
    private static final class Budget {
        private final long deadline = System.nanoTime() + MAX_NANOS;
        private int steps;

        void charge(int n) {
            steps = (int) Math.min(Integer.MAX_VALUE - 1L, (long) steps + n);
            step();
        }

        void step() {
            if (++steps > MAX_STEPS) {
                throw new BudgetExceeded(MAX_STEPS + " steps");
            }
            if ((steps & 255) == 0 && System.nanoTime() > deadline) {
                throw new BudgetExceeded(MAX_NANOS / 1_000_000 + " ms");
            }
        }
    }

    private static final class BudgetExceeded extends RuntimeException {
        BudgetExceeded(String what) {
            super(what, null, false, false);
        }
    }
}
