package dev.backplane.kernel.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The key/value secrets engines of {@link VaultDouble}, answering as Vault's API documentation shows:
 * KV v2 ({@code data/}, {@code metadata/}, {@code subkeys/}, {@code delete/}, {@code undelete/},
 * {@code destroy/}, LIST on {@code metadata/}) and KV v1 (the path itself, LIST). Versions keep their data
 * until destroyed; a soft delete sets {@code deletion_time}. Synchronized: the double's state is small.
 */
final class VaultKvEngine {

    /** What a handler answers: HTTP status and body (null for 204). */
    record Reply(int status, Object body) {
        static Reply of(Object data) {
            return new Reply(200, VaultDouble.envelope(data));
        }

        static Reply none() {
            return new Reply(204, null);
        }

        static Reply error(int status, String... errors) {
            return new Reply(status, Map.of("errors", List.of(errors)));
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private static final class Version {
        JsonNode data;
        final String created;
        String deletion = "";
        boolean destroyed;

        Version(JsonNode data, String created) {
            this.data = data;
            this.created = created;
        }
    }

    private static final class Secret {
        final List<Version> versions = new ArrayList<>();
        final String created;
        String updated;
        Map<String, String> customMetadata;

        Secret(String created) {
            this.created = created;
            this.updated = created;
        }
    }

    private final boolean v2;
    private final Map<String, Secret> secrets = new TreeMap<>();
    private final Map<String, JsonNode> v1 = new TreeMap<>();
    private final Clock clock = Clock.systemUTC();

    VaultKvEngine(boolean v2) {
        this.v2 = v2;
    }

    private String now() {
        return Instant.now(clock).toString();
    }

    synchronized void put(String path, JsonNode data) {
        if (v2) {
            Secret s = secrets.computeIfAbsent(path, k -> new Secret(now()));
            s.versions.add(new Version(data, now()));
            s.updated = now();
        } else {
            v1.put(path, data);
        }
    }

    synchronized JsonNode current(String path) {
        if (!v2) {
            return v1.get(path);
        }
        Secret s = secrets.get(path);
        if (s == null || s.versions.isEmpty()) {
            return null;
        }
        Version v = s.versions.getLast();
        return v.destroyed || !v.deletion.isEmpty() ? null : v.data;
    }

    /** Handles {@code rest} (the path after the mount), with {@code list} true for LIST. */
    synchronized Reply handle(String method, String rest, boolean list, JsonNode body) {
        return v2 ? v2(method, rest, list, body) : v1(method, rest, list, body);
    }

    private Reply v1(String method, String path, boolean list, JsonNode body) {
        if (list) {
            return keys(v1.keySet(), path);
        }
        return switch (method) {
            case "GET" -> v1.containsKey(path) ? new Reply(200, VaultDouble.envelope(v1.get(path), 2764800))
                    : Reply.error(404);
            case "POST", "PUT" -> {
                v1.put(path, body);
                yield Reply.none();
            }
            case "DELETE" -> {
                v1.remove(path);
                yield Reply.none();
            }
            default -> Reply.error(405, "unsupported operation");
        };
    }

    private Reply v2(String method, String rest, boolean list, JsonNode body) {
        int slash = rest.indexOf('/');
        String kind = slash < 0 ? rest : rest.substring(0, slash);
        String path = slash < 0 ? "" : rest.substring(slash + 1);
        if (list) {
            return kind.equals("metadata") ? keys(secrets.keySet(), path) : Reply.error(405, "unsupported operation");
        }
        Secret s = secrets.get(path);
        return switch (method + " " + kind) {
            case "GET data" -> read(s, body);
            case "POST data", "PUT data" -> write(path, s, body);
            case "PATCH data" -> patch(path, s, body);
            case "DELETE data" -> {
                if (s != null && !s.versions.isEmpty()) {
                    s.versions.getLast().deletion = now();
                }
                yield Reply.none();
            }
            case "GET subkeys" -> subkeys(s, body);
            case "GET metadata" -> s == null ? Reply.error(404) : Reply.of(metadata(s));
            case "POST delete", "PUT delete" -> each(s, body, v -> v.deletion = now());
            case "POST undelete", "PUT undelete" -> each(s, body, v -> v.deletion = "");
            case "POST destroy", "PUT destroy" -> each(s, body, v -> {
                v.destroyed = true;
                v.data = null;
            });
            default -> Reply.error(405, "unsupported operation");
        };
    }

    private Reply keys(java.util.Set<String> paths, String folder) {
        String prefix = folder.isEmpty() || folder.endsWith("/") ? folder : folder + "/";
        TreeSet<String> keys = new TreeSet<>();
        for (String p : paths) {
            if (p.startsWith(prefix)) {
                String tail = p.substring(prefix.length());
                int at = tail.indexOf('/');
                keys.add(at < 0 ? tail : tail.substring(0, at + 1));
            }
        }
        return keys.isEmpty() ? Reply.error(404) : Reply.of(Map.of("keys", List.copyOf(keys)));
    }

    /** {@code version} is the query parameter, passed in as {@code body.version}. */
    private static Version version(Secret s, JsonNode query) {
        if (s == null || s.versions.isEmpty()) {
            return null;
        }
        int n = query.path("version").asInt(0);
        return n == 0 ? s.versions.getLast() : n <= s.versions.size() ? s.versions.get(n - 1) : null;
    }

    private static Map<String, Object> versionMetadata(Secret s, Version v) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("created_time", v.created);
        m.put("custom_metadata", s.customMetadata);
        m.put("deletion_time", v.deletion);
        m.put("destroyed", v.destroyed);
        m.put("version", s.versions.indexOf(v) + 1);
        return m;
    }

    private Reply read(Secret s, JsonNode query) {
        Version v = version(s, query);
        if (v == null || v.destroyed || !v.deletion.isEmpty()) {
            return Reply.error(404);
        }
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("data", v.data);
        data.put("metadata", versionMetadata(s, v));
        return Reply.of(data);
    }

    private Reply subkeys(Secret s, JsonNode query) {
        Version v = version(s, query);
        if (v == null || v.destroyed || !v.deletion.isEmpty()) {
            return Reply.error(404);
        }
        ObjectNode keys = JSON.createObjectNode();
        v.data.fieldNames().forEachRemaining(k -> keys.putNull(k)); // depth 1: every value null
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("subkeys", keys);
        data.put("metadata", versionMetadata(s, v));
        return Reply.of(data);
    }

    private Reply write(String path, Secret s, JsonNode body) {
        if (!body.path("data").isObject()) {
            return Reply.error(400, "no data provided");
        }
        JsonNode cas = body.path("options").path("cas");
        int current = s == null ? 0 : s.versions.size();
        if (cas.isNumber() && cas.asInt() != current) {
            return Reply.error(400, "check-and-set parameter did not match the current version");
        }
        put(path, body.path("data"));
        Secret now = secrets.get(path);
        return Reply.of(versionMetadata(now, now.versions.getLast()));
    }

    private Reply patch(String path, Secret s, JsonNode body) {
        JsonNode current = current(path);
        if (current == null) {
            return Reply.error(404);
        }
        ObjectNode merged = current.deepCopy();
        body.path("data").properties().forEach(e -> {
            if (e.getValue().isNull()) {
                merged.remove(e.getKey());
            } else {
                merged.set(e.getKey(), e.getValue());
            }
        });
        JsonNode cas = body.path("options").path("cas");
        if (cas.isNumber() && cas.asInt() != s.versions.size()) {
            return Reply.error(400, "check-and-set parameter did not match the current version");
        }
        put(path, merged);
        return Reply.of(versionMetadata(s, s.versions.getLast()));
    }

    private Reply each(Secret s, JsonNode body, java.util.function.Consumer<Version> change) {
        if (!body.path("versions").isArray() || body.path("versions").isEmpty()) {
            return Reply.error(400, "no version number provided");
        }
        if (s != null) {
            body.path("versions").forEach(n -> {
                int i = n.asInt();
                if (i >= 1 && i <= s.versions.size()) {
                    change.accept(s.versions.get(i - 1));
                }
            });
        }
        return Reply.none();
    }

    private static Map<String, Object> metadata(Secret s) {
        Map<String, Object> versions = new LinkedHashMap<>();
        for (int i = 0; i < s.versions.size(); i++) {
            Version v = s.versions.get(i);
            versions.put(Integer.toString(i + 1), Map.of("created_time", v.created, "deletion_time", v.deletion,
                    "destroyed", v.destroyed));
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("cas_required", false);
        m.put("created_time", s.created);
        m.put("current_version", s.versions.size());
        m.put("custom_metadata", s.customMetadata);
        m.put("delete_version_after", "0s");
        m.put("max_versions", 0);
        m.put("oldest_version", 0);
        m.put("updated_time", s.updated);
        m.put("versions", versions);
        return m;
    }
}
