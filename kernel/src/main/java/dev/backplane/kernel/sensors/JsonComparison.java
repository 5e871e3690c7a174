package dev.backplane.kernel.sensors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.util.Optional;

/**
 * The operators of an assertion's path test over JSON values: numbers compare by decimal value (a
 * non-finite number matches nothing), strings by text, {@code contains} looks into strings, arrays and
 * objects.
 */
final class JsonComparison {

    private JsonComparison() {
    }

    /** Whether {@code v} satisfies {@code op} with {@code operand} (one of eq ne in contains gt ge lt le). */
    static boolean compare(String op, JsonNode v, JsonNode operand) {
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
}
