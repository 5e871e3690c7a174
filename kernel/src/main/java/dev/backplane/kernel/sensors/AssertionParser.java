package dev.backplane.kernel.sensors;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.util.JsonMapping;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads an assertion's JSON into its rules and {@link Condition}s, refusing anything outside the
 * language or its limits (size, rules, depth, conditions, path segments) with where the problem is.
 */
final class AssertionParser {

    private static final Set<String> OPS = Set.of("eq", "ne", "gt", "ge", "lt", "le", "contains", "in", "exists");

    private AssertionParser() {
    }

    /** Parses an assertion; a problem is a 422 {@code invalid_assertion} naming where it is (a JSON pointer). */
    static Assertion parse(JsonNode json) {
        if (json == null || json.isNull() || json.isMissingNode()) {
            throw invalid("assertion is required", "");
        }
        if (JsonMapping.write(json).length() > Assertion.MAX_CHARS) {
            throw invalid("assertion is larger than " + Assertion.MAX_CHARS + " characters of JSON", "");
        }
        if (!json.isObject()) {
            throw invalid("assertion must be a JSON object {rules, default, on_error}", "");
        }
        only(json, Set.of("rules", "default", "on_error"), "");
        JsonNode rulesNode = json.path("rules");
        if (!rulesNode.isArray() || rulesNode.isEmpty() || rulesNode.size() > Assertion.MAX_RULES) {
            throw invalid("rules must be an array of 1.." + Assertion.MAX_RULES + " rules", "/rules");
        }
        int[] budget = {Assertion.MAX_CONDITIONS};
        List<Assertion.Rule> rules = new ArrayList<>();
        for (int i = 0; i < rulesNode.size(); i++) {
            JsonNode r = rulesNode.get(i);
            String at = "/rules/" + i;
            if (!r.isObject()) {
                throw invalid("a rule must be an object {name, state, when}", at);
            }
            only(r, Set.of("name", "state", "when"), at);
            String name = r.has("name") ? text(r.get("name"), at + "/name", 200) : "rule " + (i + 1);
            rules.add(new Assertion.Rule(name, state(r.get("state"), at + "/state"),
                    cond(r.get("when"), at + "/when", 1, budget)));
        }
        SensorState fallback = json.has("default") ? state(json.get("default"), "/default") : SensorState.OK;
        SensorState onError = json.has("on_error") ? state(json.get("on_error"), "/on_error") : SensorState.CRITICAL;
        return new Assertion(List.copyOf(rules), fallback, onError, json.deepCopy());
    }

    private static Condition cond(JsonNode n, String at, int depth, int[] budget) {
        if (depth > Assertion.MAX_DEPTH) {
            throw invalid("conditions nest deeper than " + Assertion.MAX_DEPTH, at);
        }
        if (--budget[0] < 0) {
            throw invalid("more than " + Assertion.MAX_CONDITIONS + " conditions", at);
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
            List<Condition> out = new ArrayList<>();
            for (int i = 0; i < parts.size(); i++) {
                out.add(cond(parts.get(i), at + "/" + key + "/" + i, depth + 1, budget));
            }
            return key.equals("all") ? new Condition.All(List.copyOf(out)) : new Condition.Any(List.copyOf(out));
        }
        if (n.has("not")) {
            only(n, Set.of("not"), at);
            return new Condition.Not(cond(n.get("not"), at + "/not", depth + 1, budget));
        }
        return leaf(n, at);
    }

    private static Condition.Leaf leaf(JsonNode n, String at) {
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
        if (path.size() > Assertion.MAX_PATH_SEGMENTS) {
            throw invalid("path has more than " + Assertion.MAX_PATH_SEGMENTS + " segments", at + "/path");
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
                int max = Assertion.MAX_CONTAINS_CHARS;
                if (op.equals("contains") && (operand.isTextual() && operand.asText().length() > max
                        || operand.isContainerNode() && operand.toString().length() > max)) {
                    throw invalid("contains takes at most " + max + " characters", at + "/" + op);
                }
            }
        }
        if (!measure.equals("value") && !operand.isNumber() && !op.equals("in") && !op.equals("exists")) {
            throw invalid("measure " + measure + " compares a number", at + "/" + op);
        }
        return new Condition.Leaf(path, match.equals("all"), measure, op, operand);
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

    private static SensorState state(JsonNode n, String at) {
        return (n == null || !n.isTextual() ? Optional.<SensorState>empty() : SensorState.of(n.asText()))
                .orElseThrow(() -> invalid("state must be one of " + SensorState.NAMES, at));
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

    private static DomainException invalid(String message, String at) {
        return SensorErrors.INVALID_ASSERTION.error("assertion" + (at.isEmpty() ? "" : " at " + at) + ": " + message,
                Map.of("field", "assertion", "at", at));
    }
}
