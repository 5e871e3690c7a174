package dev.backplane.ingest;

import java.util.ArrayList;
import java.util.List;

/** Keeps the OpenAPI parser's messages short enough to show an operator. */
final class ParseMessages {

    private static final int MAX_LENGTH = 300;
    private static final int MAX_MESSAGES = 10;

    private ParseMessages() {
    }

    static String trim(String message) {
        return Texts.bounded(message, MAX_LENGTH);
    }

    /** At most ten messages, trimmed, then a count of the rest. */
    static List<String> summary(List<String> messages) {
        List<String> out = new ArrayList<>();
        List<String> distinct = messages.stream().filter(m -> m != null && !m.isBlank()).distinct().toList();
        for (int i = 0; i < distinct.size() && i < MAX_MESSAGES; i++) {
            out.add(trim(distinct.get(i)));
        }
        if (distinct.size() > MAX_MESSAGES) {
            out.add("... and " + (distinct.size() - MAX_MESSAGES) + " more parser messages");
        }
        return out;
    }
}
