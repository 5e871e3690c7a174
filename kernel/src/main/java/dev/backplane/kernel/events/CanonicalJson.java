package dev.backplane.kernel.events;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;

/**
 * Canonical JSON text for delivery ids: object keys sorted, no whitespace, so key order never changes a hash.
 * Iterative, so nesting depth cannot overflow the stack.
 */
final class CanonicalJson {

    private CanonicalJson() {
    }

    static String of(JsonNode root) {
        StringBuilder out = new StringBuilder();
        Deque<Object> work = new ArrayDeque<>();
        work.push(root == null ? NullNode.getInstance() : root);
        while (!work.isEmpty()) {
            Object item = work.pop();
            if (item instanceof String literal) {
                out.append(literal);
                continue;
            }
            JsonNode n = (JsonNode) item;
            if (n.isObject()) {
                List<Map.Entry<String, JsonNode>> fields = new ArrayList<>(n.properties());
                fields.sort(Map.Entry.comparingByKey());
                out.append('{');
                work.push("}");
                for (int i = fields.size() - 1; i >= 0; i--) {
                    JsonNode value = fields.get(i).getValue();
                    work.push(value == null ? NullNode.getInstance() : value);
                    work.push(quote(fields.get(i).getKey()) + ":");
                    if (i > 0) {
                        work.push(",");
                    }
                }
            } else if (n.isArray()) {
                out.append('[');
                work.push("]");
                for (int i = n.size() - 1; i >= 0; i--) {
                    JsonNode value = n.get(i);
                    work.push(value == null ? NullNode.getInstance() : value);
                    if (i > 0) {
                        work.push(",");
                    }
                }
            } else if (n.isTextual()) {
                out.append(quote(n.textValue()));
            } else if (n.isNull() || n.isMissingNode()) {
                out.append("null");
            } else if (n.isNumber() || n.isBoolean()) {
                out.append(n.asText());
            } else {
                out.append(quote(n.asText()));
            }
        }
        return out.toString();
    }

    private static String quote(String s) {
        StringBuilder b = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }
}
