package dev.backplane.kernel.retrieval;

import dev.backplane.kernel.persistence.ChangeFeed;
import dev.backplane.kernel.persistence.Jdbc;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * The lexical side of kb and memory search: BM25 over PostgreSQL's full-text lexemes. Each entry's
 * {@code tsvector} (English configuration) is its record in {@code retrieval_docs}; this index holds
 * them per (partition, surface) as an inverted index in memory ({@link LexicalSlice}), read on first use
 * and then kept current entry by entry from the change feed ({@link SliceCache}: a write re-reads that
 * entry's row, not the partition), and scores a query's lexemes with {@link Bm25} (term at a time into one
 * accumulator; 100k entries are scored in a few milliseconds). PostgreSQL's own {@code ts_rank} has
 * no inverse document frequency and must rank every row matching any word; while the feed is down,
 * searches fall back to it (through the GIN index) rather than read a slice afresh per search, and so
 * do the searches of a large partition while its slice is first read (in the background, a few seconds
 * at 100k entries).
 */
final class LexicalIndex {

    /** A ranked entry and its BM25 score. */
    record Scored(UUID entryId, double score) {
    }

    private final LexicalStore store;
    private final ChangeFeed feed;
    private final SliceCache<LexicalSlice> slices;

    LexicalIndex(Jdbc jdbc, ChangeFeed feed) {
        this.store = new LexicalStore(jdbc);
        this.feed = feed;
        this.slices = new SliceCache<>(feed, new SliceSource<>() {
            @Override
            public LexicalSlice load(UUID partition, String surface) {
                LexicalSlice.Builder slice = new LexicalSlice.Builder();
                store.eachDoc(partition, surface, slice);
                return slice.build();
            }

            @Override
            public LexicalSlice patch(UUID partition, String surface, LexicalSlice slice, Set<UUID> changed) {
                Map<UUID, LexicalSlice.Doc> docs = new HashMap<>();
                store.docs(partition, surface, changed,
                        (entry, tsv) -> docs.put(entry, LexicalSlice.Doc.parse(entry, tsv)));
                return slice.with(changed, docs);
            }

            @Override
            public boolean stale(LexicalSlice patched) {
                return SliceChanges.tooManyChanged(patched.replaced().size(), patched.entries().length);
            }

            @Override
            public long bytes(LexicalSlice s) {
                return s.bytes();
            }

            @Override
            public long rows(UUID partition, String surface) {
                return store.rows(partition, surface);
            }
        });
    }

    /** Starts reading a partition's slice in the background. */
    void startWarming(UUID partition, String surface) {
        slices.warm(partition, surface);
    }

    /** Reports the held slices (hits, misses, evictions, weight). */
    void meterInto(MeterRegistry registry) {
        slices.meterInto(registry, "retrieval.lexical.slices");
    }

    /**
     * The {@code k} best entries of the partitions for {@code query} by BM25, restricted to
     * {@code candidates}; ties by entry id. The partitions are scored as one corpus: document
     * frequencies, entry count and average length are summed over them.
     */
    List<Scored> ranked(List<UUID> partitions, String surface, String query, int k, Candidates candidates) {
        if (!feed.live()) {
            return fullText(partitions, surface, query, k, candidates);
        }
        Map<String, Integer> terms = lexemes(query);
        if (terms.isEmpty()) {
            return List.of();
        }
        List<LexicalSlice> searched = new ArrayList<>();
        for (UUID partition : partitions.stream().distinct().toList()) {
            Optional<LexicalSlice> slice = slices.ifReady(partition, surface);
            if (slice.isEmpty()) { // a large slice being read in the background: the database ranks meanwhile
                return fullText(partitions, surface, query, k, candidates);
            }
            searched.add(slice.get());
        }
        return Bm25.ranked(searched, terms, k, candidates);
    }

    /** The query's lexemes as PostgreSQL's English configuration makes them, with their counts. */
    private Map<String, Integer> lexemes(String query) {
        Map<String, Integer> out = new HashMap<>();
        TsVectorText.parse(store.lexemes(query), (lexeme, tf) -> out.merge(lexeme, tf, Integer::sum));
        return out;
    }

    /**
     * While the change feed is down, or a large slice is still being read: PostgreSQL's own ranking over the
     * GIN index, read afresh each time.
     */
    private List<Scored> fullText(List<UUID> partitions, String surface, String query, int k, Candidates candidates) {
        UUID[] only = candidates instanceof Candidates.Only o ? o.ids().toArray(UUID[]::new) : null;
        UUID[] except = candidates instanceof Candidates.Except e ? e.ids().toArray(UUID[]::new) : null;
        return store.fullText(partitions.toArray(UUID[]::new), surface, lexicalTerms(query), only, except, k);
    }

    /** At most this many words of a query go to the full-text search (long queries: the longest, which are rarer). */
    static final int LEXICAL_TERMS = 10;

    /**
     * The words of a query worth a full-text OR-search in PostgreSQL (the lexical fallback while the
     * change feed is down): distinct, alphanumeric, the longest {@value #LEXICAL_TERMS} (a paragraph-long
     * query would otherwise rank nearly every row); fed to {@code plainto_tsquery} with its lexemes OR-ed.
     */
    static String lexicalTerms(String query) {
        LinkedHashSet<String> words = new LinkedHashSet<>();
        for (String w : query.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
            if (w.length() > 2) {
                words.add(w);
            }
        }
        return words.stream().sorted(Comparator.comparingInt(String::length).reversed().thenComparing(w -> w))
                .limit(LEXICAL_TERMS).collect(Collectors.joining(" "));
    }
}
