package dev.backplane.kernel.quality;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** Where eval queries come from: curated labels on entries, or known-item queries derived from their text. */
final class QuerySets {

    /** A derived query keeps at most this many words. */
    static final int MAX_WORDS = 12;

    private QuerySets() {
    }

    /** Curated queries from a label value: a string ({@code |} between queries) or a list of strings. */
    static List<String> curated(Object value) {
        List<String> out = new ArrayList<>();
        if (value instanceof String s) {
            Arrays.stream(s.split("\\|")).map(String::strip).filter(q -> !q.isEmpty()).forEach(out::add);
        } else if (value instanceof List<?> l) {
            l.stream().filter(v -> v != null).map(v -> v.toString().strip()).filter(q -> !q.isEmpty()).forEach(out::add);
        }
        return out;
    }

    /** A kb entry's title: its first Markdown heading, else its first line. */
    static Optional<String> title(String body) {
        List<String> lines = body.lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
        String line = lines.stream().filter(l -> l.matches("#{1,3}\\s+.*")).findFirst()
                .orElse(lines.isEmpty() ? "" : lines.getFirst());
        return words(line.replaceFirst("^#{1,3}\\s+", ""));
    }

    /** A memory entry's first sentence (or line). */
    static Optional<String> firstSentence(String body) {
        String flat = body.strip();
        int end = flat.length();
        for (String stop : List.of(". ", "! ", "? ", "\n")) {
            int i = flat.indexOf(stop);
            if (i > 0) {
                end = Math.min(end, i);
            }
        }
        return words(flat.substring(0, end));
    }

    /** Markup dropped, at most {@value #MAX_WORDS} words; empty under two words (too little to be a query). */
    private static Optional<String> words(String text) {
        String[] w = text.replaceAll("[*_`>#\\[\\]()]", " ").strip().split("\\s+");
        if (w.length < 2) {
            return Optional.empty();
        }
        return Optional.of(String.join(" ", Arrays.copyOf(w, Math.min(w.length, MAX_WORDS))));
    }
}
