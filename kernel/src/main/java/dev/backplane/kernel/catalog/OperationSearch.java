package dev.backplane.kernel.catalog;

import dev.backplane.kernel.catalog.plugins.LoadedConnector;
import dev.backplane.plugin.api.OperationDescriptor;
import dev.backplane.plugin.api.OperationGroup;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Lexical operation search over one connector's catalog: query words are matched against the op id,
 * the group and the description (weighted in that order, rarer words count more, a word may match as
 * a prefix). Built once per connector; a search is a few map lookups. It moves onto the hybrid
 * retrieval engine when that lands.
 */
final class OperationSearch {

    /** A match with its score. */
    record Hit(OperationDescriptor op, double score) {
    }

    private record Entry(OperationDescriptor op, Map<String, Double> weights) {
    }

    private final List<Entry> entries = new ArrayList<>();
    private final Map<String, Double> idf = new HashMap<>();

    OperationSearch(LoadedConnector connector) {
        Map<String, OperationGroup> groups = new HashMap<>();
        connector.catalog().groups().forEach(g -> groups.put(g.groupKey(), g));
        Map<String, Integer> df = new HashMap<>();
        for (OperationDescriptor op : connector.catalog().operations()) {
            Map<String, Double> w = new HashMap<>();
            OperationGroup g = groups.get(op.groupKey());
            add(w, tokens(op.description()), 1.0);
            add(w, tokens(op.groupKey() + " " + (g == null ? "" : g.displayName())), 2.0);
            add(w, tokens(op.opId()), 3.0);
            entries.add(new Entry(op, w));
            w.keySet().forEach(t -> df.merge(t, 1, Integer::sum));
        }
        int n = Math.max(1, entries.size());
        df.forEach((t, d) -> idf.put(t, Math.log(1.0 + (double) n / d)));
    }

    /**
     * @param query free text
     * @param group narrows to one group (an unknown group gives no hits)
     * @param limit maximum hits
     * @param customDescriptions the tenant's custom descriptions, searched too
     */
    List<Hit> search(String query, Optional<String> group, int limit, Map<String, String> customDescriptions) {
        Set<String> words = new LinkedHashSet<>(tokens(query));
        if (words.isEmpty()) {
            return List.of();
        }
        List<Hit> hits = new ArrayList<>();
        for (Entry e : entries) {
            if (group.isPresent() && !group.get().equals(e.op().groupKey())) {
                continue;
            }
            Map<String, Double> weights = e.weights();
            String custom = customDescriptions.get(e.op().opId());
            if (custom != null) {
                weights = new HashMap<>(weights);
                add(weights, tokens(custom), 1.0);
            }
            double score = 0;
            for (String word : words) {
                score += match(weights, word, idf::get);
            }
            if (score > 0) {
                hits.add(new Hit(e.op(), score));
            }
        }
        hits.sort(Comparator.comparingDouble(Hit::score).reversed().thenComparing(h -> h.op().opId()));
        return hits.size() > limit ? List.copyOf(hits.subList(0, limit)) : hits;
    }

    private static double match(Map<String, Double> weights, String word, Function<String, Double> idf) {
        Double exact = weights.get(word);
        double rarity = Optional.ofNullable(idf.apply(word)).orElse(1.0);
        if (exact != null) {
            return exact * rarity;
        }
        if (word.length() < 3) {
            return 0;
        }
        double best = 0;
        for (Map.Entry<String, Double> w : weights.entrySet()) {
            if (w.getKey().startsWith(word) || (w.getKey().length() >= 4 && word.startsWith(w.getKey()))) {
                best = Math.max(best, 0.5 * w.getValue() * Optional.ofNullable(idf.apply(w.getKey())).orElse(1.0));
            }
        }
        return best;
    }

    private static void add(Map<String, Double> weights, List<String> tokens, double weight) {
        for (String t : tokens) {
            weights.merge(t, weight, Math::max);
        }
    }

    /** Lower-case words; camelCase, dots, underscores and dashes split words; a trailing plural 's' is dropped. */
    static List<String> tokens(String text) {
        if (text == null) {
            return List.of();
        }
        String spaced = text.replaceAll("([a-z0-9])([A-Z])", "$1 $2").toLowerCase(Locale.ROOT);
        List<String> out = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (String w : spaced.split("[^a-z0-9]+")) {
            if (w.isEmpty() || STOP.contains(w)) {
                continue;
            }
            String stem = w.length() > 3 && w.endsWith("s") && !w.endsWith("ss") ? w.substring(0, w.length() - 1) : w;
            if (seen.add(stem)) {
                out.add(stem);
            }
        }
        return out;
    }

    private static final Set<String> STOP = Set.of("a", "an", "the", "of", "in", "on", "to", "for", "and", "or", "by",
            "with", "is", "are", "all", "from", "this", "that", "it");
}
