package dev.backplane.client.support;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;
import java.util.StringJoiner;

/**
 * {@code DocsQuery.collection}: a collection key, a list of keys, or {@code "all"} (the document's
 * {@code oneOf: [string, array of string]}). Hand-written because the generator's {@code native} library emits a
 * oneOf wrapper that does not compile when a member is an array; the build maps the schema here
 * ({@code schemaMappings} in this module's pom). On the wire it is exactly the string or the array.
 */
public final class DocsCollectionSelector {
    private final Object value;

    private DocsCollectionSelector(Object value) {
        this.value = Objects.requireNonNull(value, "value is null");
    }

    /** One collection key, or {@code "all"}. */
    public static DocsCollectionSelector of(String key) {
        return new DocsCollectionSelector(key);
    }

    /** Several collection keys. */
    public static DocsCollectionSelector of(List<String> keys) {
        return new DocsCollectionSelector(List.copyOf(keys));
    }

    /** Every enabled collection the tenant may search. */
    public static DocsCollectionSelector all() {
        return of("all");
    }

    @JsonCreator
    static DocsCollectionSelector fromJson(Object json) {
        if (json instanceof String key) {
            return of(key);
        }
        if (json instanceof List<?> list && list.stream().allMatch(String.class::isInstance)) {
            return of(list.stream().map(String.class::cast).toList());
        }
        throw new IllegalArgumentException("collection is neither a string nor a list of strings: " + json);
    }

    /** The string or the list of strings, as sent. */
    @JsonValue
    public Object value() {
        return value;
    }

    /** The form the generated models use when a body is flattened into a query string; {@code name} is the field's. */
    public String toUrlQueryString(String name) {
        if (value instanceof String key) {
            return name + "=" + URLEncoder.encode(key, StandardCharsets.UTF_8).replace("+", "%20");
        }
        StringJoiner joiner = new StringJoiner("&");
        List<?> keys = (List<?>) value;
        for (int i = 0; i < keys.size(); i++) {
            joiner.add(name + "%5B" + i + "%5D=" + URLEncoder.encode((String) keys.get(i), StandardCharsets.UTF_8).replace("+", "%20"));
        }
        return joiner.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DocsCollectionSelector other && value.equals(other.value);
    }

    @Override
    public int hashCode() {
        return value.hashCode();
    }

    @Override
    public String toString() {
        return String.valueOf(value);
    }
}
