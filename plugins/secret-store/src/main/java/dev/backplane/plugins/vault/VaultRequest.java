package dev.backplane.plugins.vault;

import static java.util.Objects.requireNonNull;

import dev.backplane.plugin.api.HttpPreview;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * One request to Vault's HTTP API, built from validated parameters. {@code secretKeys} names the body
 * fields whose values are secret (a KV write's {@code data}): the preview shows their key names with
 * the values replaced, so neither a preview, its hash input nor an audit row carries them.
 *
 * @param method HTTP method
 * @param path the path under the origin, starting {@code /v1/}
 * @param query query parameters, in order
 * @param body the JSON body, if any
 * @param contentType the body's content type
 * @param secretKeys top-level body fields whose values are secret
 */
record VaultRequest(String method, String path, Map<String, String> query, Optional<Object> body, String contentType,
                    List<String> secretKeys) {

    static final String REDACTED = "<redacted>";

    VaultRequest {
        requireNonNull(method, "method is null");
        requireNonNull(path, "path is null");
        query = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(query));
        requireNonNull(body, "body is null");
        requireNonNull(contentType, "contentType is null");
        secretKeys = List.copyOf(secretKeys);
    }

    static VaultRequest get(String path) {
        return new VaultRequest("GET", path, Map.of(), Optional.empty(), "application/json", List.of());
    }

    /** Vault's LIST, spelled as GET with {@code list=true} (what Vault's own clients send through proxies). */
    static VaultRequest list(String path) {
        return new VaultRequest("GET", path.endsWith("/") ? path : path + "/", Map.of("list", "true"), Optional.empty(), "application/json", List.of());
    }

    static VaultRequest send(String method, String path, Object body) {
        return new VaultRequest(method, path, Map.of(), Optional.ofNullable(body), "application/json", List.of());
    }

    static VaultRequest delete(String path) {
        return new VaultRequest("DELETE", path, Map.of(), Optional.empty(), "application/json", List.of());
    }

    VaultRequest withQuery(String name, String value) {
        Map<String, String> q = new LinkedHashMap<>(query);
        q.put(name, value);
        return new VaultRequest(method, path, q, body, contentType, secretKeys);
    }

    VaultRequest withContentType(String type) {
        return new VaultRequest(method, path, query, body, type, secretKeys);
    }

    VaultRequest withSecretKeys(String... keys) {
        return new VaultRequest(method, path, query, body, contentType, List.of(keys));
    }

    String pathAndQuery() {
        return query.isEmpty() ? path : path + "?" + query.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining("&"));
    }

    /** {@code METHOD /v1/path} for messages (never the body). */
    String describe() {
        return method + " " + path;
    }

    /** What would be sent, with the secret body fields' values replaced by {@value #REDACTED}. */
    HttpPreview preview() {
        Map<String, List<String>> q = new LinkedHashMap<>();
        query.forEach((k, v) -> q.put(k, List.of(v)));
        return new HttpPreview(method, path, q, body.map(this::redacted));
    }

    private Object redacted(Object b) {
        if (!(b instanceof Map<?, ?> map) || secretKeys.isEmpty()) {
            return b;
        }
        Map<String, Object> out = new LinkedHashMap<>();
        map.forEach((k, v) -> out.put(String.valueOf(k), secretKeys.contains(String.valueOf(k)) ? redactValues(v) : v));
        return out;
    }

    private static Object redactValues(Object v) {
        if (v instanceof Map<?, ?> m) {
            Map<String, Object> out = new java.util.TreeMap<>();
            m.keySet().forEach(k -> out.put(String.valueOf(k), REDACTED));
            return out;
        }
        return REDACTED;
    }
}
