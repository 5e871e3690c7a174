package dev.backplane.ingest;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Turns vendor names (operationIds, tags, path segments) into op-id segments and group keys. */
final class OperationNames {

    private OperationNames() {
    }

    /**
     * Lower snake_case: splits camelCase and PascalCase words (keeping acronyms together), and turns
     * every run of other characters into one {@code _}. {@code listCoreV1Namespace} → {@code list_core_v1_namespace}.
     * May return "" when the text has no ASCII letters or digits.
     */
    static String snake(String text) {
        StringBuilder out = new StringBuilder(text.length() + 8);
        int length = text.length();
        for (int i = 0; i < length; i++) {
            char c = text.charAt(i);
            if (!isAsciiAlphanumeric(c)) {
                appendSeparator(out);
                continue;
            }
            if (isUpper(c) && i > 0) {
                char previous = text.charAt(i - 1);
                boolean afterWord = isLower(previous) || isDigit(previous);
                boolean endsAcronym = isUpper(previous) && i + 1 < length && isLower(text.charAt(i + 1));
                if (afterWord || endsAcronym) {
                    appendSeparator(out);
                }
            }
            out.append(Character.toLowerCase(c));
        }
        return trimUnderscores(out);
    }

    /** Group key: lower-case, runs of non-alphanumerics → {@code _}, trimmed. May return "". */
    static String slug(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (char c : text.toCharArray()) {
            if (isAsciiAlphanumeric(c)) {
                out.append(Character.toLowerCase(c));
            }
            else {
                appendSeparator(out);
            }
        }
        return trimUnderscores(out);
    }

    /**
     * A readable name for an operation without operationId: the method, then each literal path segment,
     * with path parameters after a literal as {@code by_<name>}. {@code GET /{realm}/users/{id}} →
     * {@code get_users_by_id}.
     */
    static String derived(String method, String path) {
        List<String> words = new ArrayList<>();
        words.add(method.toLowerCase(Locale.ROOT));
        boolean sawLiteral = false;
        for (String segment : path.split("/")) {
            if (segment.isEmpty()) {
                continue;
            }
            if (isParameter(segment)) {
                String name = snake(segment.substring(1, segment.length() - 1));
                if (sawLiteral && !name.isEmpty()) {
                    words.add("by_" + name);
                }
                continue;
            }
            String word = snake(segment);
            if (!word.isEmpty()) {
                words.add(word);
                sawLiteral = true;
            }
        }
        return String.join("_", words);
    }

    /** The first literal path segment, or null when there is none. */
    static String firstLiteralSegment(String path) {
        for (String segment : path.split("/")) {
            if (!segment.isEmpty() && !isParameter(segment)) {
                return segment;
            }
        }
        return null;
    }

    static boolean isParameter(String segment) {
        return segment.startsWith("{") && segment.endsWith("}") && segment.length() > 2;
    }

    private static void appendSeparator(StringBuilder out) {
        if (!out.isEmpty() && out.charAt(out.length() - 1) != '_') {
            out.append('_');
        }
    }

    private static String trimUnderscores(StringBuilder out) {
        int end = out.length();
        while (end > 0 && out.charAt(end - 1) == '_') {
            end--;
        }
        return out.substring(0, end);
    }

    private static boolean isAsciiAlphanumeric(char c) {
        return isLower(c) || isUpper(c) || isDigit(c);
    }

    private static boolean isLower(char c) {
        return c >= 'a' && c <= 'z';
    }

    private static boolean isUpper(char c) {
        return c >= 'A' && c <= 'Z';
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }
}
