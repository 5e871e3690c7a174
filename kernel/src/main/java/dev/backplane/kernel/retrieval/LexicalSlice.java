package dev.backplane.kernel.retrieval;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * One partition's inverted index as read ({@code entries} .. {@code terms}; posting lists hold
 * slice-local document numbers, ascending) plus the entries changed since: {@code replaced} base
 * entries are skipped, {@code changed} holds their current documents (a deleted entry has none).
 * Statistics count base and changed documents alike until the slice is read whole again.
 */
record LexicalSlice(UUID[] entries, float[] lengths, double totalLength, Map<String, Postings> terms,
                    Set<UUID> replaced, Map<UUID, Doc> changed) {

    /** An entry's lexemes with their counts (at most 255 each), and its length (their sum). */
    record Doc(UUID entry, Map<String, Integer> tfs, float length) {

        /** An entry's document from the text form of its {@code tsvector}. */
        static Doc parse(UUID entry, String tsv) {
            Map<String, Integer> tfs = new HashMap<>();
            TsVectorText.parse(tsv, (lexeme, tf) -> tfs.merge(lexeme, Math.min(255, tf), Integer::sum));
            return new Doc(entry, Map.copyOf(tfs), tfs.values().stream().mapToInt(Integer::intValue).sum());
        }
    }

    /** A lexeme's documents (slice-local numbers, ascending) and its count in each (unsigned byte). */
    record Postings(int[] docs, byte[] tfs) {
    }

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

    /** The slice with {@code touched} entries replaced by their {@code current} documents (absent: deleted). */
    LexicalSlice with(Set<UUID> touched, Map<UUID, Doc> current) {
        Set<UUID> r = new HashSet<>(replaced);
        r.addAll(touched);
        Map<UUID, Doc> c = new HashMap<>(changed);
        touched.forEach(c::remove);
        c.putAll(current);
        return new LexicalSlice(entries, lengths, totalLength, terms, Set.copyOf(r), Map.copyOf(c));
    }

    /** About how many bytes of heap the slice holds. */
    long bytes() {
        long t = 0;
        for (Map.Entry<String, Postings> e : terms.entrySet()) {
            t += 64L + 2L * e.getKey().length() + 5L * e.getValue().docs().length;
        }
        return t + 36L * entries.length + 48L * replaced.size() + 256L * changed.size();
    }

    /** Builds a slice's inverted index from its entries' lexemes, one entry at a time. */
    static final class Builder implements LexicalStore.DocSink {

        private final List<UUID> entries = new ArrayList<>();
        private final List<Float> lengths = new ArrayList<>();
        private final Map<String, int[]> docs = new HashMap<>();   // lexeme -> [count, d0, d1, ...] grown as needed
        private final Map<String, byte[]> tfs = new HashMap<>();

        @Override
        public void accept(UUID entry, String tsv) {
            int d = entries.size();
            entries.add(entry);
            int[] length = {0};
            TsVectorText.parse(tsv, (lexeme, tf) -> {
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

        LexicalSlice build() {
            Map<String, Postings> terms = new HashMap<>(docs.size() * 2);
            docs.forEach((lexeme, list) -> terms.put(lexeme, new Postings(Arrays.copyOfRange(list, 1, list[0] + 1),
                    Arrays.copyOf(tfs.get(lexeme), list[0]))));
            float[] lens = new float[lengths.size()];
            double sum = 0;
            for (int i = 0; i < lens.length; i++) {
                lens[i] = lengths.get(i);
                sum += lens[i];
            }
            return new LexicalSlice(entries.toArray(UUID[]::new), lens, sum, terms, Set.of(), Map.of());
        }
    }
}
