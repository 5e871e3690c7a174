package dev.backplane.kernel.quality;

import dev.backplane.kernel.identity.Caller;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * One retrieval surface as the eval sees it: a corpus with labelled queries over it, and the search
 * under test.
 *
 * @param engine what serves the surface's search: {@code hybrid} (the retrieval engine)
 * @param note said with the surface's report (for example why it is not on the retrieval engine)
 * @param corpus the documents and labelled queries a caller's eval runs over
 * @param search the surface's own search: result keys, best first, at most k
 */
record EvalSurface(String name, String engine, Optional<String> note, Function<Caller, Corpus> corpus, Search search) {

    /** A searchable item; {@code partition} narrows the grep baseline (operations: one connector). */
    record Doc(String key, String partition, String text) {
    }

    /**
     * A query whose one right answer is known.
     *
     * @param source {@code curated} (written by people: kb metadata {@code eval_queries}, memory tags
     *               {@code eval:<query>}) or {@code derived} (a known-item query made from the entry's title
     *               or first sentence)
     */
    record LabelledQuery(String query, String expected, String partition, String source) {
    }

    record Corpus(List<Doc> docs, List<LabelledQuery> queries) {
    }

    /** The search under test. */
    @FunctionalInterface
    interface Search {
        List<String> run(Caller caller, LabelledQuery query, int k);
    }
}
