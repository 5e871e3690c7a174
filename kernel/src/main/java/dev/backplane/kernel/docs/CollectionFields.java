package dev.backplane.kernel.docs;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/** The shape rules of a doc collection's fields: its key, its product list and the optional one-line texts. */
final class CollectionFields {

    static final int MAX_PRODUCTS = 32;
    private static final Pattern KEY = Pattern.compile("[a-z0-9][a-z0-9._-]{0,63}");

    private CollectionFields() {
    }

    /** A new collection's key: 1-64 of a-z, 0-9, '.', '_', '-', starting with a letter or digit; never 'all'. */
    static void key(String key) {
        if (key == null || !KEY.matcher(key).matches() || key.equals(DocCollections.ALL)) {
            throw DocsErrors.INVALID_KEY.error("a collection key is 1-64 lower-case letters, digits, '.', "
                    + "'_' or '-', starting with a letter or digit ('all' is reserved)", Map.of("field", "key"));
        }
    }

    /** Up to {@value #MAX_PRODUCTS} non-blank names of at most 128 characters, stripped, each once. */
    static List<String> products(List<String> product) {
        if (product.size() > MAX_PRODUCTS || product.stream().anyMatch(p -> p == null || p.isBlank() || p.length() > 128)) {
            throw DocsErrors.INVALID_PRODUCT.error("product is a list of up to " + MAX_PRODUCTS
                    + " non-empty strings", Map.of("field", "product"));
        }
        return product.stream().map(String::strip).distinct().toList();
    }

    /** A given text, stripped; blank or absent is SQL NULL. */
    static String blankToNull(Optional<String> v) {
        return v.filter(s -> !s.isBlank()).map(String::strip).orElse(null);
    }
}
