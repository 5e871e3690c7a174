package dev.backplane.kernel.retrieval;

import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.errors.DomainException;
import java.util.Map;

/** What every retrieval surface accepts as a search query, and the error a query it refuses gets. */
final class SearchQuery {

    /** The longest query any search takes. */
    static final int MAX_CHARS = 16_384;

    private SearchQuery() {
    }

    /**
     * A search query as every surface takes it — not blank, at most {@value #MAX_CHARS} characters,
     * no NUL character (PostgreSQL text cannot hold one), at least one letter or digit.
     *
     * @throws DomainException 422 {@code invalid_query}
     */
    static void require(String query) {
        if (query == null || query.isBlank()) {
            throw CommonErrors.INVALID_QUERY.error("query is empty", Map.of("field", "query"));
        }
        if (query.length() > MAX_CHARS) {
            throw CommonErrors.INVALID_QUERY.error("query is " + query.length() + " characters; at most "
                    + MAX_CHARS, Map.of("field", "query", "max_chars", MAX_CHARS));
        }
        if (query.indexOf('\0') >= 0) {
            throw CommonErrors.INVALID_QUERY.error("query contains a NUL character", Map.of("field", "query"));
        }
        if (query.codePoints().noneMatch(Character::isLetterOrDigit)) {
            throw CommonErrors.INVALID_QUERY.error("query has no letter or digit to search for",
                    Map.of("field", "query"));
        }
    }
}
