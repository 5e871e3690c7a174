package dev.backplane.kernel.docs;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A deterministic, extractive answer — no language model. The sentences of the top passages that
 * share the most query terms are quoted, best first, each followed by a marker {@code [n]} that
 * resolves to source n, a retrieved passage the sentence is taken from verbatim. With nothing
 * retrieved, or no sentence sharing enough query terms, the answer is exactly
 * {@value #NO_ANSWER} with no sources. The same query over the same passages gives the same answer.
 */
final class GroundedAnswer {

    static final String NO_ANSWER = "no grounded answer";
    static final int PASSAGES = 5;
    static final int SENTENCES = 3;
    static final int MIN_WORDS = 4;
    static final int MAX_SENTENCE_CHARS = 600;

    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}][\\p{L}\\p{N}_-]*");
    private static final Pattern LIST_ITEM = Pattern.compile("(?:[*+>-]|\\d+[.)])\\s+");
    private static final Pattern SENTENCE_END = Pattern.compile("(?<=[.!?])\\s+(?=[\\p{Lu}\\p{N}\"'(\\[`])");
    private static final Set<String> STOPWORDS = Set.of("a", "an", "and", "are", "as", "at", "be", "by", "can", "do",
            "does", "for", "from", "how", "i", "if", "in", "is", "it", "its", "me", "my", "of", "on", "or", "should",
            "that", "the", "their", "then", "there", "these", "this", "to", "was", "we", "what", "when", "where", "which",
            "who", "why", "will", "with", "you", "your", "after", "before", "about", "into", "than", "so", "no", "not");

    /** A cited source of the answer: marker number n and the passage it resolves to. */
    record Source(int ref, String collection, String chunkId, Optional<String> title, Optional<String> url) {
    }

    /** The answer text (or {@value #NO_ANSWER}) and the sources its markers resolve to. */
    record Answer(String answer, boolean grounded, List<Source> sources) {
    }

    private record Candidate(String sentence, int matched, int passage, int position) {
    }

    private GroundedAnswer() {
    }

    static Answer answer(String query, List<DocsChunk> ranked) {
        List<String> terms = terms(query);
        if (terms.isEmpty() || ranked.isEmpty()) {
            return none();
        }
        int needed = Math.max(1, (terms.size() + 2) / 3);
        List<Candidate> candidates = new ArrayList<>();
        for (int p = 0; p < Math.min(PASSAGES, ranked.size()); p++) {
            List<String> sentences = sentences(ranked.get(p).text());
            for (int s = 0; s < sentences.size(); s++) {
                int matched = matched(terms, sentences.get(s));
                if (matched >= needed) {
                    candidates.add(new Candidate(sentences.get(s), matched, p, s));
                }
            }
        }
        candidates.sort(Comparator.comparingInt(Candidate::matched).reversed()
                .thenComparingInt(Candidate::passage).thenComparingInt(Candidate::position));
        Map<Integer, Source> sources = new LinkedHashMap<>();
        Set<String> said = new HashSet<>();
        StringBuilder text = new StringBuilder();
        for (Candidate c : candidates) {
            if (said.size() == SENTENCES || !said.add(c.sentence().toLowerCase(Locale.ROOT))) {
                continue;
            }
            DocsChunk chunk = ranked.get(c.passage());
            Source src = sources.computeIfAbsent(c.passage(), p -> new Source(sources.size() + 1, chunk.collection(),
                    chunk.chunkId(), chunk.title(), chunk.url()));
            text.append(text.isEmpty() ? "" : " ").append(c.sentence()).append(" [").append(src.ref()).append(']');
        }
        return text.isEmpty() ? none() : new Answer(text.toString(), true, List.copyOf(sources.values()));
    }

    private static Answer none() {
        return new Answer(NO_ANSWER, false, List.of());
    }

    /** The query's content words, lower-case, without stopwords, in order, once each. */
    static List<String> terms(String query) {
        Set<String> out = new LinkedHashSet<>();
        for (String w : words(query)) {
            if (!STOPWORDS.contains(w) && (w.length() > 1 || Character.isDigit(w.charAt(0)))) {
                out.add(w);
            }
        }
        return List.copyOf(out);
    }

    /**
     * Claims, not headings: paragraphs are runs of lines (a blank line, heading or list item starts a
     * new one; headings are dropped), split at sentence ends; sentences under {@value #MIN_WORDS} words skipped.
     */
    static List<String> sentences(String text) {
        List<String> paragraphs = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String raw : text.split("\\R")) {
            String line = raw.strip();
            Matcher item = LIST_ITEM.matcher(line);
            boolean isItem = item.lookingAt();
            if (line.isEmpty() || line.startsWith("#") || isItem) {
                flush(current, paragraphs);
            }
            if (!line.isEmpty() && !line.startsWith("#")) {
                current.append(current.isEmpty() ? "" : " ").append(isItem ? line.substring(item.end()) : line);
            }
        }
        flush(current, paragraphs);
        List<String> out = new ArrayList<>();
        for (String paragraph : paragraphs) {
            for (String s : SENTENCE_END.split(paragraph.replaceAll("\\s+", " "))) {
                String sentence = s.strip();
                if (words(sentence).size() >= MIN_WORDS && sentence.length() <= MAX_SENTENCE_CHARS) {
                    out.add(sentence);
                }
            }
        }
        return out;
    }

    private static void flush(StringBuilder current, List<String> into) {
        if (!current.isEmpty()) {
            into.add(current.toString());
            current.setLength(0);
        }
    }

    private static int matched(List<String> terms, String sentence) {
        List<String> words = words(sentence);
        int n = 0;
        for (String t : terms) {
            if (words.stream().anyMatch(w -> same(t, w))) {
                n++;
            }
        }
        return n;
    }

    /** Equal, or equal but for a plural s, or sharing a stem-length prefix (rotate/rotation, cert/certificates). */
    static boolean same(String a, String b) {
        if (a.equals(b) || singular(a).equals(singular(b))) {
            return true;
        }
        int shorter = Math.min(a.length(), b.length());
        int common = 0;
        while (common < shorter && a.charAt(common) == b.charAt(common)) {
            common++;
        }
        return common >= Math.max(4, shorter - 3) && shorter >= 4;
    }

    private static String singular(String w) {
        return w.length() > 3 && w.endsWith("s") && !w.endsWith("ss") ? w.substring(0, w.length() - 1) : w;
    }

    private static List<String> words(String text) {
        List<String> out = new ArrayList<>();
        Matcher m = WORD.matcher(text.toLowerCase(Locale.ROOT));
        while (m.find()) {
            out.add(m.group());
        }
        return out;
    }
}
