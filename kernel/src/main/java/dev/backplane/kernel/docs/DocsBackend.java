package dev.backplane.kernel.docs;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/** How the backplane talks to one type of external retrieval service ({@code backend_type}). */
interface DocsBackend {

    /** The {@code backend_type} this backend serves. */
    String type();

    /**
     * Checks a non-empty backend_ref at create or update and returns what to store.
     *
     * @param owner the owning tenant, empty for a global collection (secret_ref scope rules differ)
     * @throws dev.backplane.kernel.errors.DomainException 422 with a clear code when the ref is unusable
     */
    Map<String, Object> validate(Optional<UUID> owner, String key, Map<String, Object> ref);

    /** Retrieves the passages that best match the query, best first, at most {@code request.limit()}. */
    List<Passage> retrieve(DocCollection collection, Request request);

    /** One retrieval: the query text, how many passages, and the optional filters passed through. */
    record Request(String query, int limit, Optional<String> product, Optional<String> version) {
        public Request {
            requireNonNull(query, "query is null");
            requireNonNull(product, "product is null");
            requireNonNull(version, "version is null");
        }
    }

    /** A retrieved passage as the backend returned it. */
    record Passage(String collection, String id, String text, Optional<String> title, Optional<String> url,
                   Optional<Double> score) {
        public Passage {
            requireNonNull(collection, "collection is null");
            requireNonNull(id, "id is null");
            requireNonNull(text, "text is null");
            requireNonNull(title, "title is null");
            requireNonNull(url, "url is null");
            requireNonNull(score, "score is null");
        }
    }
}
