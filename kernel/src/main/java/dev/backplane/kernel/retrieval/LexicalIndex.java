package dev.backplane.kernel.retrieval;

import dev.backplane.kernel.persistence.ChangeFeed;
import dev.backplane.kernel.persistence.Jdbc;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.UUID;

/**
 * The lexical side of kb and memory search: BM25 over PostgreSQL's full-text lexemes. Each entry's
 * {@code tsvector} (English configuration) is its record in {@code retrieval_docs}; this index holds
 * them per (partition, surface) as an inverted index in memory, read on first use and then kept
 * current entry by entry from the change feed ({@link SliceCache}: a write re-reads that entry's row,
 * not the partition), and scores a query's lexemes with BM25 (term at a time into one
 * accumulator; 100k entries are scored in a few milliseconds). PostgreSQL's own {@code ts_rank} has
 * no inverse document frequency and must rank every row matching any word; while the feed is down,
 * searches fall back to it (through the GIN index) rather than read a slice afresh per search, and so
 * do the searches of a large partition while its slice is first read (in the background, a few seconds
 * at 100k entries).
 */
final class LexicalIndex {

    /** BM25 parameters: the values Anserini uses for BEIR. */
    static final float K1 = 0.9f;
    static final float B = 0.4f;
    /** At most this many query lexemes are scored (the rarest): a pasted page stays a bounded search. */
    static final int MAX_QUERY_TERMS = 64;

    /** A ranked entry and its BM25 score. */
    record Scored(UUID entryId, double score) {
    }

    /** An entry's lexemes with their counts, and its length (their sum). */
    private record Doc(UUID entry, Map<String, Integer> tfs, float length) {
    }

    /**
     * One partition's inverted index as read ({@code entries} .. {@code terms}; posting lists hold
     * slice-local document numbers, ascending) plus the entries changed since: {@code replaced} base
     * entries are skipped, {@code changed} holds their current documents (a deleted entry has none).
     * Statistics count base and changed documents alike until the slice is read whole again.
     */
    private record Slice(UUID[] entries, float[] lengths, double totalLength, Map<String, Postings> terms,
                         Set<UUID> replaced, Map<UUID, Doc> changed) {

        int size() {
            return entries.length + changed.size();
        }

        double length() {
            return totalLength + changed.values().stream().mapToDouble(Doc::length).sum();
        }

        int df(String lexeme) {
            Postings p = terms.get(lexeme);
            int df = p == null ? 0 : p.docs().length;
            for (Doc d : changed.values()) {
                df += d.tfs().containsKey(lexeme) ? 1 : 0;
            }
            return df;
        }

        Slice with(Set<UUID> touched, Map<UUID, Doc> current) {
            Set<UUID> r = new HashSet<>(replaced);
            r.addAll(touched);
            Map<UUID, Doc> c = new HashMap<>(changed);
            touched.forEach(c::remove);
            c.putAll(current);
            return new Slice(entries, lengths, totalLength, terms, Set.copyOf(r), Map.copyOf(c));
        }
    }

    private record Postings(int[] docs, byte[] tfs) {
    }

    private final Jdbc jdbc;
    private final ChangeFeed feed;
    private final SliceCache<Slice> slices;

    LexicalIndex(Jdbc jdbc, ChangeFeed feed) {
        this.jdbc = jdbc;
        this.feed = feed;
        this.slices = new SliceCache<>(feed, new SliceCache.Source<>() {
            @Override
            public Slice load(UUID partition, String surface) {
                return LexicalIndex.this.load(partition, surface);
            }

            @Override
            public Slice patch(UUID partition, String surface, Slice slice, Set<UUID> changed) {
                Map<UUID, Doc> docs = new HashMap<>();
                jdbc.query("SELECT entry_id, tsv::text FROM retrieval_docs WHERE tenant_id = ? AND surface = ? "
                        + "AND entry_id = ANY (?)", rs -> doc(rs.getObject(1, UUID.class), rs.getString(2)), partition,
                        surface, changed.toArray(UUID[]::new)).forEach(d -> docs.put(d.entry(), d));
                return slice.with(changed, docs);
            }

            @Override
            public boolean stale(Slice patched) {
                return SliceCache.tooManyChanged(patched.replaced().size(), patched.entries().length);
            }

            @Override
            public long bytes(Slice s) {
                long terms = 0;
                for (Map.Entry<String, Postings> t : s.terms().entrySet()) {
                    terms += 64L + 2L * t.getKey().length() + 5L * t.getValue().docs().length;
                }
                return terms + 36L * s.entries().length + 48L * s.replaced().size() + 256L * s.changed().size();
            }

            @Override
            public long rows(UUID partition, String surface) {
                return ChunkRows.count(jdbc, "retrieval_docs", partition, surface);
            }
        });
    }

    /** Starts reading a partition's slice in the background. */
    void startWarming(UUID partition, String surface) {
        slices.warm(partition, surface);
    }

    /** Reports the held slices (hits, misses, evictions, weight). */
    void meterInto(io.micrometer.core.instrument.MeterRegistry registry) {
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
        List<Slice> searched = new ArrayList<>();
        for (UUID partition : partitions.stream().distinct().toList()) {
            java.util.Optional<Slice> slice = slices.ifReady(partition, surface);
            if (slice.isEmpty()) { // a large slice being read in the background: the database ranks meanwhile
                return fullText(partitions, surface, query, k, candidates);
            }
            searched.add(slice.get());
        }
        int n = searched.stream().mapToInt(Slice::size).sum();
        if (n == 0) {
            return List.of();
        }
        float average = (float) Math.max(1, searched.stream().mapToDouble(Slice::length).sum() / n);
        Map<String, Float> idf = new HashMap<>();
        terms.keySet().forEach(lexeme -> {
            int df = searched.stream().mapToInt(s -> s.df(lexeme)).sum();
            if (df > 0) {
                idf.put(lexeme, (float) Math.log(1 + Math.max(0, n - df + 0.5) / (df + 0.5)));
            }
        });
        List<String> rarest = idf.keySet().stream().sorted(Comparator.<String, Float>comparing(idf::get).reversed()
                .thenComparing(Comparator.<String>naturalOrder())).limit(MAX_QUERY_TERMS).toList();
        List<Scored> all = new ArrayList<>();
        for (Slice slice : searched) {
            all.addAll(ranked(slice, rarest, terms, idf, average, k, candidates));
        }
        all.sort(Comparator.comparingDouble(Scored::score).reversed().thenComparing(s -> s.entryId().toString()));
        return all.size() > k ? all.subList(0, k) : all;
    }

    private static Doc doc(UUID entry, String tsv) {
        Map<String, Integer> tfs = new HashMap<>();
        TsVectorText.parse(tsv, (lexeme, tf) -> tfs.merge(lexeme, Math.min(255, tf), Integer::sum));
        return new Doc(entry, Map.copyOf(tfs), tfs.values().stream().mapToInt(Integer::intValue).sum());
    }

    private static List<Scored> ranked(Slice slice, List<String> lexemes, Map<String, Integer> queryTf,
                                       Map<String, Float> idf, float average, int k, Candidates candidates) {
        int n = slice.entries().length;
        float[] acc = new float[n];
        float[] lengths = slice.lengths();
        for (String lexeme : lexemes) {
            Postings postings = slice.terms().get(lexeme);
            if (postings == null) {
                continue;
            }
            int[] docs = postings.docs();
            byte[] tfs = postings.tfs();
            float weight = idf.get(lexeme) * queryTf.get(lexeme);
            for (int j = 0; j < docs.length; j++) {
                int d = docs[j];
                float tf = tfs[j] & 0xff;
                acc[d] += weight * tf * (K1 + 1) / (tf + K1 * (1 - B + B * lengths[d] / average));
            }
        }
        PriorityQueue<Scored> top = new PriorityQueue<>(k + 1, Comparator.comparingDouble(Scored::score));
        Set<UUID> replaced = slice.replaced();
        for (int d = 0; d < n; d++) {
            if (acc[d] > 0 && (top.size() < k || acc[d] > top.peek().score())) {
                UUID entry = slice.entries()[d];
                if (candidates.allows(entry) && (replaced.isEmpty() || !replaced.contains(entry))) {
                    offer(top, new Scored(entry, acc[d]), k);
                }
            }
        }
        for (Doc doc : slice.changed().values()) {
            double score = 0;
            for (String lexeme : lexemes) {
                Integer tf = doc.tfs().get(lexeme);
                if (tf != null) {
                    score += idf.get(lexeme) * queryTf.get(lexeme) * tf * (K1 + 1)
                            / (tf + K1 * (1 - B + B * doc.length() / average));
                }
            }
            if (score > 0 && candidates.allows(doc.entry())) {
                offer(top, new Scored(doc.entry(), score), k);
            }
        }
        return new ArrayList<>(top);
    }

    private static void offer(PriorityQueue<Scored> top, Scored s, int k) {
        if (top.size() < k || s.score() > top.peek().score()) {
            top.add(s);
            if (top.size() > k) {
                top.poll();
            }
        }
    }

    /** The query's lexemes as PostgreSQL's English configuration makes them, with their counts. */
    private Map<String, Integer> lexemes(String query) {
        String tsv = jdbc.queryOne("SELECT to_tsvector('english', ?)::text", rs -> rs.getString(1), query).orElse("");
        Map<String, Integer> out = new HashMap<>();
        TsVectorText.parse(tsv, (lexeme, tf) -> out.merge(lexeme, tf, Integer::sum));
        return out;
    }
    /** Reads a slice's lexemes (the text form of each {@code tsvector}) into an inverted index. */
    private Slice load(UUID partition, String surface) {
        List<UUID> entries = new ArrayList<>();
        List<Float> lengths = new ArrayList<>();
        Map<String, int[]> docs = new HashMap<>();   // lexeme -> [count, d0, d1, ...] grown as needed
        Map<String, byte[]> tfs = new HashMap<>();
        jdbc.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT entry_id, tsv::text FROM retrieval_docs "
                    + "WHERE tenant_id = ? AND surface = ?")) {
                ps.setFetchSize(2_000);
                ps.setObject(1, partition);
                ps.setString(2, surface);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        int d = entries.size();
                        entries.add(rs.getObject(1, UUID.class));
                        int[] length = {0};
                        TsVectorText.parse(rs.getString(2), (lexeme, tf) -> {
                            length[0] += tf;
                            int[] list = docs.get(lexeme);
                            if (list == null) {
                                list = new int[4];
                                docs.put(lexeme, list);
                                tfs.put(lexeme, new byte[3]);
                            } else if (list[0] + 1 == list.length) {
                                list = Arrays.copyOf(list, list.length * 2);
                                docs.put(lexeme, list);
                                tfs.put(lexeme, Arrays.copyOf(tfs.get(lexeme), list.length - 1));
                            }
                            tfs.get(lexeme)[list[0]] = (byte) Math.min(255, tf);
                            list[++list[0]] = d;
                        });
                        lengths.add((float) length[0]);
                    }
                }
            }
            return null;
        });
        Map<String, Postings> terms = new HashMap<>(docs.size() * 2);
        docs.forEach((lexeme, list) -> terms.put(lexeme, new Postings(Arrays.copyOfRange(list, 1, list[0] + 1),
                Arrays.copyOf(tfs.get(lexeme), list[0]))));
        float[] lens = new float[lengths.size()];
        double sum = 0;
        for (int i = 0; i < lens.length; i++) {
            lens[i] = lengths.get(i);
            sum += lens[i];
        }
        return new Slice(entries.toArray(UUID[]::new), lens, sum, terms, Set.of(), Map.of());
    }

    /**
     * While the change feed is down, or a large slice is still being read: PostgreSQL's own ranking over the
     * GIN index, read afresh each time.
     */
    private List<Scored> fullText(List<UUID> partitions, String surface, String query, int k, Candidates candidates) {
        String sql = """
                SELECT entry_id, ts_rank(tsv, x.q, 1) FROM retrieval_docs,
                       (SELECT replace(plainto_tsquery('english', ?)::text, '&', '|')::tsquery AS q) x
                 WHERE tenant_id = ANY (?) AND surface = ? AND tsv @@ x.q
                   AND (CAST(? AS uuid[]) IS NULL OR entry_id = ANY (?))
                   AND (CAST(? AS uuid[]) IS NULL OR NOT (entry_id = ANY (?)))
                 ORDER BY 2 DESC, entry_id LIMIT ?""";
        UUID[] only = candidates instanceof Candidates.Only o ? o.ids().toArray(UUID[]::new) : null;
        UUID[] except = candidates instanceof Candidates.Except e ? e.ids().toArray(UUID[]::new) : null;
        return jdbc.query(sql, rs -> new Scored(rs.getObject(1, UUID.class), rs.getDouble(2)),
                lexicalTerms(query), partitions.toArray(UUID[]::new), surface, only, only, except, except,
                k);
    }

    /** At most this many words of a query go to the full-text search (long queries: the longest, which are rarer). */
    static final int LEXICAL_TERMS = 10;

    /**
     * The words of a query worth a full-text OR-search in PostgreSQL (the lexical fallback while the
     * change feed is down): distinct, alphanumeric, the longest {@value #LEXICAL_TERMS} (a paragraph-long
     * query would otherwise rank nearly every row); fed to {@code plainto_tsquery} with its lexemes OR-ed.
     */
    static String lexicalTerms(String query) {
        java.util.LinkedHashSet<String> words = new java.util.LinkedHashSet<>();
        for (String w : query.toLowerCase(java.util.Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
            if (w.length() > 2) {
                words.add(w);
            }
        }
        return words.stream().sorted(Comparator.comparingInt(String::length).reversed().thenComparing(w -> w))
                .limit(LEXICAL_TERMS).collect(java.util.stream.Collectors.joining(" "));
    }
}
