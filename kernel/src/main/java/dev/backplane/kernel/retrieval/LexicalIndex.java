package dev.backplane.kernel.retrieval;

import dev.backplane.kernel.persistence.ChangeFeed;
import dev.backplane.kernel.persistence.Jdbc;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The lexical side of kb and memory search: BM25 over PostgreSQL's full-text lexemes. Each entry's
 * {@code tsvector} (English configuration) is its record in {@code retrieval_docs}; this index holds
 * them per (partition, surface) as an inverted index in memory — loaded on first use, dropped on every
 * replica when any replica writes that slice (change feed) — and scores a query's lexemes with BM25
 * (term at a time into one accumulator; 100k entries are scored in a few milliseconds). PostgreSQL's
 * own {@code ts_rank} has no inverse document frequency and must rank every row matching any word;
 * while the feed is down, searches fall back to it (through the GIN index) rather than read a slice
 * afresh per search.
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

    /** One partition's inverted index. Posting lists hold slice-local document numbers, ascending. */
    private record Slice(UUID[] entries, float[] lengths, double totalLength, Map<String, Postings> terms) {
        int df(String lexeme) {
            Postings p = terms.get(lexeme);
            return p == null ? 0 : p.docs().length;
        }
    }

    private record Postings(int[] docs, byte[] tfs) {
    }

    static final String TOPIC = "retrieval";
    private final Jdbc jdbc;
    private final ChangeFeed feed;
    private final Map<String, Slice> slices = new ConcurrentHashMap<>();
    /** Loads under way: concurrent searches of a slice not yet loaded wait for the one load. */
    private final Map<String, java.util.concurrent.CompletableFuture<Slice>> loading = new ConcurrentHashMap<>();
    /** Bumped by every change to a slice: a load that saw a change while it ran is not kept. */
    private final Map<String, AtomicLong> generations = new ConcurrentHashMap<>();

    LexicalIndex(Jdbc jdbc, ChangeFeed feed) {
        this.jdbc = jdbc;
        this.feed = feed;
        feed.subscribe(TOPIC, key -> {
            generation(key).incrementAndGet();
            slices.remove(key);
        });
        feed.onReset(() -> {
            generations.values().forEach(AtomicLong::incrementAndGet);
            slices.clear();
        });
    }

    static String key(UUID partition, String surface) {
        return partition + "/" + surface;
    }

    private AtomicLong generation(String key) {
        return generations.computeIfAbsent(key, k -> new AtomicLong());
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
        List<Slice> searched = partitions.stream().distinct().map(p -> slice(p, surface)).toList();
        int n = searched.stream().mapToInt(s -> s.entries().length).sum();
        if (n == 0) {
            return List.of();
        }
        float average = (float) Math.max(1, searched.stream().mapToDouble(Slice::totalLength).sum() / n);
        Map<String, Float> idf = new HashMap<>();
        terms.keySet().forEach(lexeme -> {
            int df = searched.stream().mapToInt(s -> s.df(lexeme)).sum();
            if (df > 0) {
                idf.put(lexeme, (float) Math.log(1 + (n - df + 0.5) / (df + 0.5)));
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

    /**
     * The slice, from the cache or loaded once however many searches ask at the same time; a load that
     * saw a change to its slice while it ran serves its own search but is not kept.
     */
    private Slice slice(UUID partition, String surface) {
        String key = key(partition, surface);
        Slice cached = slices.get(key);
        if (cached != null) {
            return cached;
        }
        java.util.concurrent.CompletableFuture<Slice> mine = new java.util.concurrent.CompletableFuture<>();
        java.util.concurrent.CompletableFuture<Slice> running = loading.putIfAbsent(key, mine);
        if (running != null) {
            return running.join();
        }
        try {
            long before = generation(key).get();
            Slice slice = load(partition, surface);
            if (feed.live() && generation(key).get() == before) {
                slices.put(key, slice);
                if (generation(key).get() != before) {
                    slices.remove(key, slice); // a change arrived while it was being kept
                }
            }
            mine.complete(slice);
            return slice;
        } catch (RuntimeException | Error e) {
            mine.completeExceptionally(e);
            throw e;
        } finally {
            loading.remove(key, mine);
        }
    }

    private static List<Scored> ranked(Slice slice, List<String> lexemes, Map<String, Integer> queryTf,
                                       Map<String, Float> idf, float average, int k, Candidates candidates) {
        int n = slice.entries().length;
        if (n == 0) {
            return List.of();
        }
        float[] acc = new float[n];
        float[] lengths = slice.lengths();
        float avg = average;
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
                acc[d] += weight * tf * (K1 + 1) / (tf + K1 * (1 - B + B * lengths[d] / avg));
            }
        }
        PriorityQueue<Scored> top = new PriorityQueue<>(k + 1, Comparator.comparingDouble(Scored::score));
        for (int d = 0; d < n; d++) {
            if (acc[d] > 0 && (top.size() < k || acc[d] > top.peek().score())
                    && candidates.allows(slice.entries()[d])) {
                top.add(new Scored(slice.entries()[d], acc[d]));
                if (top.size() > k) {
                    top.poll();
                }
            }
        }
        return new ArrayList<>(top);
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
        return new Slice(entries.toArray(UUID[]::new), lens, sum, terms);
    }

    /** While the change feed is down: PostgreSQL's own ranking over the GIN index, read afresh each time. */
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
                RetrievalEngine.lexicalTerms(query), partitions.toArray(UUID[]::new), surface, only, only, except, except,
                k);
    }
}
