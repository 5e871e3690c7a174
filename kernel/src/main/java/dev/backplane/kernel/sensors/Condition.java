package dev.backplane.kernel.sensors;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.util.JsonMapping;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;

/**
 * A parsed assertion condition — all, any, not, or a path test (a leaf) — and how it is evaluated
 * against a call's result, every value visited charged to the evaluation's budget.
 */
sealed interface Condition permits Condition.All, Condition.Any, Condition.Not, Condition.Leaf {

    record All(List<Condition> parts) implements Condition {
    }

    record Any(List<Condition> parts) implements Condition {
    }

    record Not(Condition inner) implements Condition {
    }

    /** A path test: the selected values ({@code every} for match all) measured and compared by {@code op}. */
    record Leaf(List<String> path, boolean every, String measure, String op, JsonNode operand) implements Condition {
    }

    static boolean holds(Condition c, JsonNode root, EvaluationBudget budget) {
        budget.step();
        return switch (c) {
            case All a -> a.parts().stream().allMatch(p -> holds(p, root, budget));
            case Any a -> a.parts().stream().anyMatch(p -> holds(p, root, budget));
            case Not n -> !holds(n.inner(), root, budget);
            case Leaf l -> leafHolds(l, root, budget);
        };
    }

    private static boolean leafHolds(Leaf l, JsonNode root, EvaluationBudget budget) {
        List<JsonNode> selected = new ArrayList<>();
        select(root, l.path(), 0, selected, budget);
        if (l.op().equals("exists")) {
            return selected.isEmpty() != l.operand().asBoolean();
        }
        if (l.measure().equals("count")) {
            return JsonComparison.compare(l.op(), JsonMapping.mapper().getNodeFactory().numberNode(selected.size()),
                    l.operand());
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
            boolean ok = measured != null && JsonComparison.compare(l.op(), measured, l.operand());
            if (ok && !l.every()) {
                return true;
            }
            if (!ok && l.every()) {
                return false;
            }
        }
        return l.every();
    }

    private static void select(JsonNode node, List<String> path, int i, List<JsonNode> out, EvaluationBudget budget) {
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
            Iterator<JsonNode> it = node.isContainerNode() ? node.elements() : Collections.emptyIterator();
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
            return v.asText().length() / Assertion.CHARS_PER_STEP;
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
}
