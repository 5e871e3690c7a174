package dev.backplane.kernel.catalog;

import dev.backplane.kernel.plugins.LoadedConnector;
import dev.backplane.plugin.api.OperationDescriptor;
import dev.backplane.plugin.api.OperationGroup;
import dev.backplane.plugin.api.OperationShape;
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
 * the op id, the group, the path and the description (weighted in that order, rarer words count more, a word may
 * match as a prefix, as another inflection of itself or as one of its synonyms, each for less:
 * {@link OperationWords}). An operation whose action is the query's verb counts for more, and a destructive one
 * for less when the query does not ask to destroy ({@link #adjustment}). Built once per connector; a search is a
 * few map lookups. {@link OperationIndex} fuses it with the dense side on the retrieval engine. PostgreSQL full
 * text does not fit here: the catalog lives in memory (plugin jars, ingested connectors) and op ids need camelCase
 * and prefix matching.
 */
final class OperationSearch {

    /** A match: the operation, its number in the catalog, its score. */
    record Hit(OperationDescriptor op, int item, double score) {
    }

    private record Entry(OperationDescriptor op, Map<String, Double> weights, OperationWords.Action action) {
    }

    /** How much an operation whose action is the query's verb gains, lexically. */
    static final double VERB_MATCH = 1.5;
    /** What a destructive operation keeps of its lexical score when the query does not ask to destroy. */
    static final double DESTRUCTIVE = 0.5;
    /** What a match counts for as another inflection of the word, and as one of its synonyms. */
    private static final double STEM = 0.7;
    private static final double SYNONYM = 0.7;
    /** Inflections and synonyms on more than a tenth of a catalog's operations (and over this many) are not matched. */
    private static final int COMMON_MIN = 200;

    private final List<Entry> entries = new ArrayList<>();
    private final Map<String, Double> idf = new HashMap<>();
    /** token -> (entry index -> weight); sorted so that prefix matches are a range scan. */
    private final TreeMap<String, Map<Integer, Double>> postings = new TreeMap<>();
    /** stem -> (entry index -> weight) ({@link OperationWords#stem}). */
    private final Map<String, Map<Integer, Double>> stems = new HashMap<>();
    private final Map<String, Double> stemIdf = new HashMap<>();

    OperationSearch(LoadedConnector connector) {
        Map<String, OperationGroup> groups = new HashMap<>();
        connector.catalog().groups().forEach(g -> groups.put(g.groupKey(), g));
        for (OperationDescriptor op : connector.catalog().operations()) {
            Map<String, Double> w = new HashMap<>();
            OperationGroup g = groups.get(op.groupKey());
            add(w, tokens(op.description()), 1.0);
            if (op.shape() instanceof OperationShape.Http http) {
                // the path's own words, and (for less) its parameters': an operation under /{realm}/ is in a realm
                add(w, tokens(http.pathTemplate().replaceAll("[{}]", " ")), 1.0);
                add(w, tokens(http.pathTemplate().replaceAll("\\{[^}]*}", " ")), 1.5);
            }
            add(w, tokens(op.groupKey() + " " + (g == null ? "" : g.displayName())), 2.0);
            add(w, tokens(op.opId()), 3.0);
            int index = entries.size();
            entries.add(new Entry(op, w, OperationWords.action(op)));
            w.forEach((t, weight) -> {
                postings.computeIfAbsent(t, k -> new HashMap<>()).put(index, weight);
                stems.computeIfAbsent(OperationWords.stem(t), k -> new HashMap<>()).merge(index, weight, Math::max);
            });
        }
        int n = Math.max(1, entries.size());
        postings.forEach((t, p) -> idf.put(t, Math.log(1.0 + (double) n / p.size())));
        stems.forEach((t, p) -> stemIdf.put(t, Math.log(1.0 + (double) n / p.size())));
    }

    /** What a query asks for ({@link OperationWords#intent}). */
    static OperationWords.Intent intent(String query) {
        return OperationWords.intent(tokens(OperationWords.phrases(query)));
    }

    /**
     * The factor an operation's score is multiplied by for a query's intent: {@code verbMatch} when the operation's
     * verb is the query's (or a synonym of it), half as much more when it is only the same kind of action ("write"
     * and "configure" both update); {@code destructive} when it destroys and the query neither asks to destroy nor
     * names its action; 1 otherwise.
     */
    double adjustment(int item, OperationWords.Intent intent, double verbMatch, double destructive) {
        OperationWords.Action action = entries.get(item).action();
        int match = intent.matches(action);
        if (match > 0) {
            return match == 2 ? verbMatch : 1 + (verbMatch - 1) / 2;
        }
        return action.destructive() && !intent.destroys() ? destructive : 1.0;
    }

    /**
     * @param query free text
     * @param group narrows to one group (an unknown group gives no hits)
     * @param limit maximum hits
     * @param customDescriptions the tenant's custom descriptions, searched too
     */
    List<Hit> search(String query, Optional<String> group, int limit, Map<String, String> customDescriptions) {
        Set<String> words = new LinkedHashSet<>(tokens(OperationWords.phrases(query)));
        if (words.isEmpty()) {
            return List.of();
        }
        OperationWords.Intent intent = OperationWords.intent(List.copyOf(words));
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
        // inflections and synonyms matching more operations than this are left out
        int common = Math.max(COMMON_MIN, entries.size() / 10);
        for (String word : words) {
            Map<Integer, Double> best = new HashMap<>();
            double rarity = idf.getOrDefault(word, Math.log(1.0 + entries.size()));
            postings.getOrDefault(word, Map.of()).forEach((e, w) -> best.merge(e, w * rarity, Math::max));
            matchStem(word, STEM, best, common);
            // a synonym counts for less than the word itself, unless the catalog never uses the word (the vendor
            // says "RRset" where the operator says "record")
            double synonymWeight = best.isEmpty() ? 1.0 : SYNONYM;
            for (String synonym : OperationWords.synonyms(word)) {
                Map<Integer, Double> p = postings.get(synonym);
                if (p != null && p.size() <= common) { // a word on most operations says little, and costs much
                    double r = idf.get(synonym);
                    p.forEach((e, w) -> best.merge(e, synonymWeight * w * r, Math::max));
                }
                matchStem(synonym, synonymWeight * STEM, best, common);
            }
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
                hits.add(new Hit(op, e, score * adjustment(e, intent, VERB_MATCH, DESTRUCTIVE)));
            }
        });
        hits.sort(Comparator.comparingDouble(Hit::score).reversed().thenComparing(h -> h.op().opId()));
        return hits.size() > limit ? List.copyOf(hits.subList(0, limit)) : hits;
    }

    /**
     * Entries sharing the word's stem (another inflection of it), at {@code factor} of their weight, unless more than
     * {@code common} do.
     */
    private void matchStem(String word, double factor, Map<Integer, Double> best, int common) {
        String stem = OperationWords.stem(word);
        Map<Integer, Double> p = stems.get(stem);
        if (p != null && p.size() <= common) {
            double r = stemIdf.get(stem);
            p.forEach((e, w) -> best.merge(e, factor * w * r, Math::max));
        }
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
            "with", "is", "are", "all", "from", "this", "that", "it",
            // the words of a question, which name nothing in a catalog ("who is on call right now")
            "what", "which", "who", "whose", "when", "where", "why", "how", "much", "many", "would", "could",
            "should", "be", "was", "were", "my", "me", "do", "does", "did", "there", "now");
}
