package dev.backplane.kernel.catalog;

import dev.backplane.kernel.plugins.LoadedConnector;
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
import java.util.TreeMap;

/**
 * The lexical side of operation search over one connector's catalog: query words are matched against
 * the op id, the group and the description (weighted in that order, rarer words count more, a word may
 * match as a prefix). Built once per connector; a search is a few map lookups. {@link OperationIndex}
 * fuses it with the dense side on the retrieval engine. PostgreSQL full text does not fit here: the
 * catalog lives in memory (plugin jars, ingested connectors) and op ids need camelCase and prefix matching.
 */
final class OperationSearch {

    /** A match: the operation, its number in the catalog, its score. */
    record Hit(OperationDescriptor op, int item, double score) {
    }

    private record Entry(OperationDescriptor op, Map<String, Double> weights) {
    }

    private final List<Entry> entries = new ArrayList<>();
    private final Map<String, Double> idf = new HashMap<>();
    /** token -> (entry index -> weight); sorted so that prefix matches are a range scan. */
    private final TreeMap<String, Map<Integer, Double>> postings = new TreeMap<>();

    OperationSearch(LoadedConnector connector) {
        Map<String, OperationGroup> groups = new HashMap<>();
        connector.catalog().groups().forEach(g -> groups.put(g.groupKey(), g));
        for (OperationDescriptor op : connector.catalog().operations()) {
            Map<String, Double> w = new HashMap<>();
            OperationGroup g = groups.get(op.groupKey());
            add(w, tokens(op.description()), 1.0);
            add(w, tokens(op.groupKey() + " " + (g == null ? "" : g.displayName())), 2.0);
            add(w, tokens(op.opId()), 3.0);
            int index = entries.size();
            entries.add(new Entry(op, w));
            w.forEach((t, weight) -> postings.computeIfAbsent(t, k -> new HashMap<>()).put(index, weight));
        }
        int n = Math.max(1, entries.size());
        postings.forEach((t, p) -> idf.put(t, Math.log(1.0 + (double) n / p.size())));
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
        Map<Integer, Map<String, Double>> custom = new HashMap<>();
        if (!customDescriptions.isEmpty()) {
            for (int i = 0; i < entries.size(); i++) {
                String text = customDescriptions.get(entries.get(i).op().opId());
                if (text != null) {
                    Map<String, Double> w = new HashMap<>();
                    add(w, tokens(text), 1.0);
                    custom.put(i, w);
                }
            }
        }
        Map<Integer, Double> scores = new HashMap<>();
        for (String word : words) {
            Map<Integer, Double> best = new HashMap<>();
            double rarity = idf.getOrDefault(word, Math.log(1.0 + entries.size()));
            postings.getOrDefault(word, Map.of()).forEach((e, w) -> best.merge(e, w * rarity, Math::max));
            if (word.length() >= 3) {
                for (var range : postings.subMap(word, false, word + Character.MAX_VALUE, false).entrySet()) {
                    double r = idf.get(range.getKey());
                    range.getValue().forEach((e, w) -> best.merge(e, 0.5 * w * r, Math::max));
                }
                for (int k = 4; k < word.length(); k++) {
                    Map<Integer, Double> p = postings.get(word.substring(0, k));
                    if (p != null) {
                        double r = idf.get(word.substring(0, k));
                        p.forEach((e, w) -> best.merge(e, 0.5 * w * r, Math::max));
                    }
                }
            }
            custom.forEach((e, w) -> {
                Double exact = w.get(word);
                if (exact != null) {
                    best.merge(e, exact * rarity, Math::max);
                }
            });
            best.forEach((e, v) -> scores.merge(e, v, Double::sum));
        }
        List<Hit> hits = new ArrayList<>();
        scores.forEach((e, score) -> {
            OperationDescriptor op = entries.get(e).op();
            if (group.isEmpty() || group.get().equals(op.groupKey())) {
                hits.add(new Hit(op, e, score));
            }
        });
        hits.sort(Comparator.comparingDouble(Hit::score).reversed().thenComparing(h -> h.op().opId()));
        return hits.size() > limit ? List.copyOf(hits.subList(0, limit)) : hits;
    }

    /** The catalog's operations, numbered as the hits' {@code item}. */
    List<OperationDescriptor> operations() {
        return entries.stream().map(Entry::op).toList();
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
