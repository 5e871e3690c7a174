package dev.backplane.cli.common;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/** Reading the backplane's JSON answers for human output. */
public final class Json {

    private Json() {
    }

    /** The node's text, or "" when it is null or missing. */
    public static String str(JsonNode n) {
        return n == null || n.isNull() || n.isMissingNode() ? "" : n.asText();
    }

    /** The texts of an array's elements. */
    public static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    /** {@code true} when the value is neither JSON null nor missing. */
    public static boolean present(JsonNode n) {
        return !n.isNull() && !n.isMissingNode();
    }
}
