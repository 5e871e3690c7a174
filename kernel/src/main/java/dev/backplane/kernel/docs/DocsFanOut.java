package dev.backplane.kernel.docs;

import dev.backplane.kernel.errors.DomainException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * One docs query across its collections: every collection is asked at once (one virtual thread each) and the
 * ranked lists are fused by reciprocal rank; a collection failing while others answer is reported, all failing is
 * the first error.
 */
final class DocsFanOut {

    /** Reciprocal rank fusion constant, as in the kb's hybrid engine. */
    static final int RRF_K = 60;

    /** The fused chunks, and the collections that did not answer. */
    record Retrieved(List<DocsChunk> chunks, List<DocsService.Failure> failed) {
    }

    /** A passage at its 1-based rank in the list of the {@code collectionOrder}-th collection named. */
    record Ranked(DocsBackend.Passage passage, int rank, int collectionOrder) {
    }

    private DocsFanOut() {
    }

    static Retrieved retrieve(DocCollections collections, List<DocCollection> targets, DocsBackend.Request r) {
        if (targets.isEmpty()) {
            return new Retrieved(List.of(), List.of());
        }
        List<Ranked> all = new ArrayList<>();
        List<DocsService.Failure> failed = new ArrayList<>();
        DomainException first = null;
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<List<DocsBackend.Passage>>> answers = targets.stream()
                    .map(d -> pool.submit(() -> collections.backend(d).retrieve(d, r))).toList();
            for (int i = 0; i < targets.size(); i++) {
                try {
                    List<DocsBackend.Passage> passages = answers.get(i).get();
                    for (int rank = 0; rank < passages.size(); rank++) {
                        all.add(new Ranked(passages.get(rank), rank + 1, i));
                    }
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof DomainException api)) {
                        throw new IllegalStateException("docs backend failed unexpectedly", e.getCause());
                    }
                    first = first == null ? api : first;
                    failed.add(new DocsService.Failure(targets.get(i).key(), api.code(), api.getMessage()));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while waiting for docs backends", e);
                }
            }
        }
        if (first != null && failed.size() == targets.size()) {
            throw first;
        }
        return new Retrieved(fuse(all, r.limit()), failed);
    }

    /**
     * The best {@code limit} passages: a passage scores 1/(k + rank) in its own list; ties go to the earlier-named
     * collection.
     */
    static List<DocsChunk> fuse(List<Ranked> ranked, int limit) {
        List<Ranked> all = new ArrayList<>(ranked);
        all.sort(Comparator.comparingInt(Ranked::rank).thenComparingInt(Ranked::collectionOrder));
        List<DocsChunk> chunks = new ArrayList<>();
        for (Ranked x : all.subList(0, Math.min(limit, all.size()))) {
            DocsBackend.Passage p = x.passage();
            chunks.add(new DocsChunk(chunks.size() + 1, p.collection(), p.id(), p.title(), p.url(), p.text(),
                    Math.round(1e6 / (RRF_K + x.rank())) / 1e6, p.score(),
                    new DocsChunk.Citation(p.collection(), p.title(), p.url(), p.id())));
        }
        return chunks;
    }
}
