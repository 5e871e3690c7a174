package dev.backplane.plugins.openapi;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Removes a session's secret values (credential fields, the Basic header made from them, minted tokens)
 * from anything the vendor sends back before it leaves the plugin: bodies, error texts, results.
 */
final class Scrubber {

    static final String MASK = "***";

    private final Set<String> secrets = ConcurrentHashMap.newKeySet();

    /** Adds a secret and its URL-encoded spelling (how it looks when a form echoes it). */
    void add(String secret) {
        if (secret == null || secret.isEmpty()) {
            return;
        }
        secrets.add(secret);
        String encoded = URLEncoder.encode(secret, StandardCharsets.UTF_8);
        secrets.add(encoded);
        secrets.add(WireEncoding.percent(secret));
    }

    String scrub(String text) {
        if (text == null || secrets.isEmpty()) {
            return text;
        }
        String out = text;
        List<String> longestFirst = new ArrayList<>(secrets);
        longestFirst.sort(Comparator.comparingInt(String::length).reversed());
        for (String s : longestFirst) {
            out = out.replace(s, MASK);
        }
        return out;
    }

    /** The same JSON value with every string (and object key) scrubbed. */
    Object scrubDeep(Object value) {
        if (secrets.isEmpty()) {
            return value;
        }
        return switch (value) {
            case String s -> scrub(s);
            case Map<?, ?> m -> {
                Map<String, Object> out = new LinkedHashMap<>();
                m.forEach((k, v) -> out.put(scrub(String.valueOf(k)), scrubDeep(v)));
                yield out;
            }
            case List<?> l -> l.stream().map(e -> e == null ? null : scrubDeep(e)).toList();
            case null -> null;
            default -> value;
        };
    }

    @Override
    public String toString() {
        return "Scrubber[" + secrets.size() + " values, redacted]";
    }
}
