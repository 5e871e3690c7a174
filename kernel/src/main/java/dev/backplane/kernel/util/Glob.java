package dev.backplane.kernel.util;

import java.util.ArrayList;
import java.util.List;

/**
 * fnmatch-style patterns, as grants and broadcast overrides use them: {@code *} any run, {@code ?} one
 * character, {@code [...]} a class ({@code [!...]} negated, {@code a-z} ranges); everything else is
 * literal, an unclosed {@code [} included. Matching never throws and takes time proportional to
 * pattern × text at worst (the two-pointer wildcard algorithm: no regular expression, so no
 * catastrophic backtracking however many stars a pattern has).
 */
public final class Glob {

    private Glob() {
    }

    /** One element of a pattern: a star, or something that matches exactly one character. */
    private sealed interface Token permits Star, One {
    }

    private record Star() implements Token {
    }

    private record One(String chars, List<char[]> ranges, boolean any, boolean negated) implements Token {
        boolean matches(char c) {
            if (any) {
                return true;
            }
            boolean in = chars.indexOf(c) >= 0;
            for (char[] r : ranges) {
                in |= c >= r[0] && c <= r[1];
            }
            return in != negated;
        }
    }

    public static boolean matches(String pattern, String text) {
        List<Token> p = parse(pattern);
        int t = 0;
        int i = 0;
        int starAt = -1;
        int textAtStar = 0;
        while (t < text.length()) {
            if (i < p.size() && p.get(i) instanceof One one && one.matches(text.charAt(t))) {
                i++;
                t++;
            } else if (i < p.size() && p.get(i) instanceof Star) {
                starAt = i++;
                textAtStar = t;
            } else if (starAt >= 0) {
                i = starAt + 1;
                t = ++textAtStar;
            } else {
                return false;
            }
        }
        while (i < p.size() && p.get(i) instanceof Star) {
            i++;
        }
        return i == p.size();
    }

    /** How many literal characters the pattern has: the more, the more specific. */
    public static int literalLength(String pattern) {
        return pattern.replaceAll("[*?\\[\\]]", "").length();
    }

    private static List<Token> parse(String pattern) {
        List<Token> tokens = new ArrayList<>();
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c == '*') {
                if (tokens.isEmpty() || !(tokens.getLast() instanceof Star)) {
                    tokens.add(new Star());
                }
            } else if (c == '?') {
                tokens.add(new One("", List.of(), true, false));
            } else if (c == '[' && pattern.indexOf(']', i + 1) > i) {
                int end = pattern.indexOf(']', i + 1);
                String body = pattern.substring(i + 1, end);
                boolean negated = body.startsWith("!");
                if (negated) {
                    body = body.substring(1);
                }
                StringBuilder chars = new StringBuilder();
                List<char[]> ranges = new ArrayList<>();
                for (int k = 0; k < body.length(); k++) {
                    if (k + 2 < body.length() && body.charAt(k + 1) == '-') {
                        ranges.add(new char[] {body.charAt(k), body.charAt(k + 2)}); // a reversed range matches nothing
                        k += 2;
                    } else {
                        chars.append(body.charAt(k));
                    }
                }
                tokens.add(new One(chars.toString(), ranges, false, negated));
                i = end;
            } else {
                tokens.add(new One(String.valueOf(c), List.of(), false, false));
            }
        }
        return tokens;
    }
}
