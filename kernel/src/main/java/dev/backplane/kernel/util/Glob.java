package dev.backplane.kernel.util;

import java.util.regex.Pattern;

/**
 * fnmatch-style patterns, as grants and broadcast overrides use them: {@code *} any run, {@code ?} one
 * character, {@code [...]} a class ({@code [!...]} negated); everything else is literal.
 */
public final class Glob {

    private Glob() {
    }

    public static boolean matches(String pattern, String text) {
        return compile(pattern).matcher(text).matches();
    }

    /** The pattern as a regular expression. */
    public static Pattern compile(String pattern) {
        StringBuilder re = new StringBuilder();
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            switch (c) {
                case '*' -> re.append(".*");
                case '?' -> re.append('.');
                case '[' -> {
                    int end = pattern.indexOf(']', i + 1);
                    if (end < 0) {
                        re.append("\\[");
                    } else {
                        String cls = pattern.substring(i + 1, end).replace("\\", "\\\\");
                        re.append('[').append(cls.startsWith("!") ? "^" + cls.substring(1) : cls).append(']');
                        i = end;
                    }
                }
                default -> re.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(re.toString(), Pattern.DOTALL);
    }

    /** How many literal characters the pattern has: the more, the more specific. */
    public static int literalLength(String pattern) {
        return pattern.replaceAll("[*?\\[\\]]", "").length();
    }
}
