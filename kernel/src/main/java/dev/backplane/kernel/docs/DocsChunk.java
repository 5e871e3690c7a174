package dev.backplane.kernel.docs;

import java.util.Optional;

/**
 * One ranked passage of a docs search, with the citation that names where it came from.
 *
 * @param rank 1-based position in the merged list
 * @param score the fused reciprocal-rank score (comparable within one response)
 * @param backendScore the score the backend gave, if any (not comparable across collections)
 */
public record DocsChunk(int rank, String collection, String chunkId, Optional<String> title, Optional<String> url,
                        String text, double score, Optional<Double> backendScore, Citation citation) {

    /** Where a passage comes from: enough to find it again. */
    public record Citation(String collection, Optional<String> title, Optional<String> url, String chunkId) {
    }
}
