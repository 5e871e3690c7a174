package dev.backplane.kernel.retrieval;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * BM25 over held {@link LexicalSlice}s: several partitions scored as one corpus (document frequencies, entry
 * count and average length summed over them), at most {@value #MAX_QUERY_TERMS} of the query's rarest lexemes,
 * term at a time into one accumulator per slice, the best {@code k} kept in a bounded heap.
 */
final class Bm25 {

    /**
     * BM25 parameters: the defaults of Lucene, Elasticsearch and Terrier. Anserini's 0.9 / 0.4 (tuned on MS MARCO's
     * short passages) normalised length too weakly for entries of mixed length: on ArguAna it gave 0.418 against
     * 0.489 with these. These are the textbook values, not the best ArguAna found ({@code bench/results/arguana.md},
     * 2026-12-02).
     */
    static final float K1 = 1.2f;
    static final float B = 0.75f;
    /** At most this many query lexemes are scored (the rarest): a pasted page stays a bounded search. */
    static final int MAX_QUERY_TERMS = 128;

    private Bm25() {
    }

    /** A lexeme's inverse document frequency among {@code n} entries, {@code df} of which hold it (never negative). */
    static float idf(int n, int df) {
        return (float) Math.log(1 + Math.max(0, n - df + 0.5) / (df + 0.5));
    }

    /** One lexeme's share of a document's score: {@code weight} (idf × query count), its count and the lengths. */
    static float term(float weight, float tf, float length, float average) {
        return weight * tf * (K1 + 1) / (tf + K1 * (1 - B + B * length / average));
    }

    /**
     * The {@code k} best entries of the slices for a query's lexemes ({@code terms}, with their counts in the
     * query) restricted to {@code candidates}; best first, ties by entry id.
     */
    static List<LexicalIndex.Scored> ranked(List<LexicalSlice> slices, Map<String, Integer> terms, int k,
                                            Candidates candidates) {
        int n = slices.stream().mapToInt(LexicalSlice::size).sum();
        if (n == 0) {
            return List.of();
        }
        float average = (float) Math.max(1, slices.stream().mapToDouble(LexicalSlice::length).sum() / n);
        Map<String, Float> idf = new HashMap<>();
        terms.keySet().forEach(lexeme -> {
            int df = slices.stream().mapToInt(s -> s.df(lexeme)).sum();
            if (df > 0) {
                idf.put(lexeme, idf(n, df));
            }
        });
        List<String> rarest = idf.keySet().stream().sorted(Comparator.<String, Float>comparing(idf::get).reversed()
                .thenComparing(Comparator.<String>naturalOrder())).limit(MAX_QUERY_TERMS).toList();
        List<LexicalIndex.Scored> all = new ArrayList<>();
        for (LexicalSlice slice : slices) {
            all.addAll(ranked(slice, rarest, terms, idf, average, k, candidates));
        }
        all.sort(Comparator.comparingDouble(LexicalIndex.Scored::score).reversed()
                .thenComparing(s -> s.entryId().toString()));
        return all.size() > k ? all.subList(0, k) : all;
    }

    private static List<LexicalIndex.Scored> ranked(LexicalSlice slice, List<String> lexemes,
                                                    Map<String, Integer> queryTf, Map<String, Float> idf,
                                                    float average, int k, Candidates candidates) {
        int n = slice.entries().length;
        float[] acc = new float[n];
        float[] lengths = slice.lengths();
        for (String lexeme : lexemes) {
            LexicalSlice.Postings postings = slice.terms().get(lexeme);
            if (postings == null) {
                continue;
            }
            int[] docs = postings.docs();
            byte[] tfs = postings.tfs();
            float weight = idf.get(lexeme) * queryTf.get(lexeme);
            for (int j = 0; j < docs.length; j++) {
                int d = docs[j];
                acc[d] += term(weight, tfs[j] & 0xff, lengths[d], average);
            }
        }
        TopK top = new TopK(k);
        Set<UUID> replaced = slice.replaced();
        UUID[] entries = slice.entries();
        for (int d = 0; d < n; d++) {
            float score = acc[d];
            if (score > 0 && top.admits(score)) {
                UUID entry = entries[d];
                if (candidates.allows(entry) && (replaced.isEmpty() || !replaced.contains(entry))) {
                    top.offer(d, score);
                }
            }
        }
        // entries changed since the slice was read are numbered after its own: n, n + 1, ...
        List<UUID> changed = new ArrayList<>();
        for (LexicalSlice.Doc doc : slice.changed().values()) {
            double score = 0;
            for (String lexeme : lexemes) {
                Integer tf = doc.tfs().get(lexeme);
                if (tf != null) {
                    score += term(idf.get(lexeme) * queryTf.get(lexeme), tf, doc.length(), average);
                }
            }
            if (score > 0 && candidates.allows(doc.entry())) {
                top.offer(n + changed.size(), (float) score);
                changed.add(doc.entry());
            }
        }
        List<LexicalIndex.Scored> out = new ArrayList<>(top.size());
        top.forEach((id, score) -> out.add(new LexicalIndex.Scored(id < n ? entries[id] : changed.get(id - n), score)));
        return out;
    }
}
