package dev.backplane.kernel.quality;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The grep baseline: what an operator gets from {@code grep -ril -e word1 -e word2 ...} over the same
 * corpus. A document matches when it contains any query word (case-insensitive substring, words of
 * three letters or more); matches are ranked by how many distinct query words they contain, then by
 * key. No stemming, no meaning.
 */
final class GrepBaseline {

    private GrepBaseline() {
    }

    /** @param docs key to lower-cased text, of the query's partition */
    static List<String> rank(String query, Map<String, String> docs, int k) {
        Set<String> words = words(query);
        List<Map.Entry<String, Integer>> matched = new ArrayList<>();
        docs.forEach((key, text) -> {
            int n = 0;
            for (String w : words) {
                if (text.contains(w)) {
                    n++;
                }
            }
            if (n > 0) {
                matched.add(Map.entry(key, n));
            }
        });
        matched.sort(Map.Entry.<String, Integer>comparingByValue(Comparator.reverseOrder())
                .thenComparing(Map.Entry.comparingByKey()));
        return matched.stream().limit(k).map(Map.Entry::getKey).toList();
    }

    static Set<String> words(String query) {
        Set<String> out = new LinkedHashSet<>();
        for (String w : query.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
            if (w.length() >= 3) {
                out.add(w);
            }
        }
        return out;
    }
}
