package dev.backplane.plugins.vault;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.plugin.api.OperationResult;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Turns Vault's answers into results. This is where secret values are kept out: KV reads keep field
 * names and drop values, the token lookup drops the token's own id, and every row or object is built
 * from named metadata fields rather than copied through.
 */
final class VaultResults {

    /** Operations whose 404 means "nothing there" (Vault answers an empty LIST with 404). */
    static final Set<String> LISTS = Set.of("vault.kv.list", "vault.policy.list", "vault.lease.list",
            "vault.token.role-list", "vault.approle.role-list", "vault.kubernetes.role-list", "vault.pki.issuer-list",
            "vault.pki.cert-list");
    /** Fields never passed on from any answer: credentials Vault may put next to metadata. */
    private static final Set<String> NEVER = Set.of("id", "client_token", "secret_id", "private_key", "token",
            "wrapping_token", "secret_id_accessor_token");

    private VaultResults() {
    }

    static OperationResult reduce(String opId, VaultParams p, VaultClient.Answer answer) {
        JsonNode body = answer.body();
        JsonNode data = body.path("data");
        return switch (opId) {
            case "vault.kv.list" -> keyRows(answer, "key", p.optionalPath());
            case "vault.kv.read" -> new OperationResult.Document(kvRead(p, data));
            case "vault.kv.metadata" -> new OperationResult.Document(kvMetadata(p, data));
            case "vault.kv.versions" -> new OperationResult.Rows(kvVersions(data));
            case "vault.kv.write", "vault.kv.patch" -> new OperationResult.Document(kvWritten(opId, p, data));
            case "vault.kv.delete", "vault.kv.undelete", "vault.kv.destroy" ->
                    new OperationResult.Document(kvChanged(opId, p));
            case "vault.sys.health", "vault.sys.seal-status" -> new OperationResult.Document(plain(body));
            case "vault.mount.list", "vault.sys.auth-list", "vault.sys.audit-list" ->
                    new OperationResult.Rows(mounts(data.isObject() ? data : body));
            case "vault.mount.enable", "vault.mount.disable" -> new OperationResult.Document(Map.of("path", p.path(),
                    opId.endsWith("enable") ? "enabled" : "disabled", true));
            case "vault.policy.list" -> keyRows(answer, "name", "");
            case "vault.policy.read" -> new OperationResult.Document(policy(data));
            case "vault.policy.write", "vault.policy.delete" -> new OperationResult.Document(Map.of("name", p.name(),
                    opId.endsWith("write") ? "written" : "deleted", true));
            case "vault.lease.list" -> keyRows(answer, "lease", p.leaseId("prefix"));
            case "vault.lease.revoke" -> new OperationResult.Document(Map.of("lease_id", p.leaseId("lease_id"),
                    "revoked", true));
            case "vault.token.role-list", "vault.approle.role-list", "vault.kubernetes.role-list" ->
                    keyRows(answer, "name", "");
            case "vault.pki.issuer-list" -> new OperationResult.Rows(issuers(answer, data));
            case "vault.pki.cert-list" -> keyRows(answer, "serial", "");
            case "vault.lease.lookup" -> new OperationResult.Document(lease(p, data));
            default -> new OperationResult.Document(plain(data)); // lookups and role/cert reads: metadata objects
        };
    }

    /** The answer as plain Java values, without the fields in {@link #NEVER}, at any depth. */
    static Object plain(JsonNode node) {
        if (node.isObject()) {
            Map<String, Object> out = new LinkedHashMap<>();
            node.properties().forEach(e -> {
                if (!NEVER.contains(e.getKey())) {
                    out.put(e.getKey(), plain(e.getValue()));
                }
            });
            return out;
        }
        if (node.isArray()) {
            List<Object> out = new ArrayList<>();
            node.forEach(n -> out.add(plain(n)));
            return out;
        }
        if (node.isMissingNode() || node.isNull()) {
            return null;
        }
        return VaultClient.JSON.convertValue(node, Object.class);
    }

    private static OperationResult keyRows(VaultClient.Answer answer, String column, String folder) {
        List<Map<String, Object>> rows = new ArrayList<>();
        if (answer.status() == 404) {
            return new OperationResult.Rows(rows);
        }
        for (JsonNode k : answer.body().path("data").path("keys")) {
            String key = k.asText();
            Map<String, Object> row = new LinkedHashMap<>();
            boolean isFolder = key.endsWith("/");
            row.put(column, isFolder ? key.substring(0, key.length() - 1) : key);
            if (column.equals("key")) {
                row.put("folder", isFolder);
                row.put("path", (folder.isEmpty() ? "" : folder + "/") + key);
            }
            rows.add(row);
        }
        return new OperationResult.Rows(rows);
    }

    private static Map<String, Object> kvRead(VaultParams p, JsonNode data) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("mount", p.mount("secret"));
        out.put("path", p.path());
        JsonNode fields = p.kvVersion() == 2 ? data.path("subkeys") : data;
        Set<String> keys = new TreeSet<>();
        fields.fieldNames().forEachRemaining(keys::add);
        out.put("keys", List.copyOf(keys)); // names only: a KV v1 answer's values are dropped here
        if (p.kvVersion() == 2) {
            JsonNode m = data.path("metadata");
            for (String f : List.of("version", "created_time", "deletion_time", "destroyed", "custom_metadata")) {
                out.put(f, plain(m.path(f)));
            }
        }
        return out;
    }

    private static Map<String, Object> kvMetadata(VaultParams p, JsonNode data) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("mount", p.mount("secret"));
        out.put("path", p.path());
        for (String f : List.of("current_version", "oldest_version", "max_versions", "cas_required",
                "delete_version_after", "created_time", "updated_time", "custom_metadata")) {
            out.put(f, plain(data.path(f)));
        }
        out.put("version_count", data.path("versions").size());
        return out;
    }

    private static List<Map<String, Object>> kvVersions(JsonNode data) {
        long current = data.path("current_version").asLong();
        List<Map<String, Object>> rows = new ArrayList<>();
        Iterator<Map.Entry<String, JsonNode>> it = data.path("versions").fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode v = e.getValue();
            Map<String, Object> row = new LinkedHashMap<>();
            long version = Long.parseLong(e.getKey());
            row.put("version", version);
            row.put("created_time", v.path("created_time").asText());
            row.put("deletion_time", v.path("deletion_time").asText());
            row.put("destroyed", v.path("destroyed").asBoolean());
            row.put("state", v.path("destroyed").asBoolean() ? "destroyed"
                    : v.path("deletion_time").asText().isEmpty() ? "live" : "deleted");
            row.put("current", version == current);
            rows.add(row);
        }
        rows.sort(Comparator.comparingLong(r -> -(Long) r.get("version")));
        return rows;
    }

    private static Map<String, Object> kvWritten(String opId, VaultParams p, JsonNode data) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("mount", p.mount("secret"));
        out.put("path", p.path());
        out.put("fields", List.copyOf(new TreeSet<>(p.data().keySet())));
        if (opId.equals("vault.kv.patch") || p.kvVersion() == 2) {
            out.put("version", plain(data.path("version")));
            out.put("created_time", plain(data.path("created_time")));
        } else {
            out.put("written", true);
        }
        return out;
    }

    private static Map<String, Object> kvChanged(String opId, VaultParams p) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("mount", p.mount("secret"));
        out.put("path", p.path());
        String action = opId.substring(opId.lastIndexOf('.') + 1);
        out.put("action", action);
        List<Integer> versions = p.versions(false);
        out.put("versions", versions.isEmpty() ? (p.kvVersion() == 1 ? "all" : "current") : versions);
        return out;
    }

    private static List<Map<String, Object>> mounts(JsonNode table) {
        List<Map<String, Object>> rows = new ArrayList<>();
        table.properties().forEach(e -> {
            JsonNode m = e.getValue();
            if (!e.getKey().endsWith("/") || !m.isObject()) {
                return; // the legacy top-level copy of the table also carries request_id, data, ...
            }
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("path", e.getKey());
            row.put("type", m.path("type").asText());
            row.put("description", m.path("description").asText());
            row.put("accessor", m.path("accessor").asText(""));
            row.put("local", m.path("local").asBoolean());
            row.put("options", plain(m.path("options")));
            rows.add(row);
        });
        return rows;
    }

    private static Map<String, Object> lease(VaultParams p, JsonNode data) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("lease_id", p.leaseId("lease_id"));
        for (String f : List.of("issue_time", "expire_time", "last_renewal", "renewable", "ttl")) {
            out.put(f, plain(data.path(f)));
        }
        return out;
    }

    private static Map<String, Object> policy(JsonNode data) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("name", data.path("name").asText());
        out.put("policy", data.hasNonNull("policy") ? data.path("policy").asText() : data.path("rules").asText());
        return out;
    }

    private static List<Map<String, Object>> issuers(VaultClient.Answer answer, JsonNode data) {
        List<Map<String, Object>> rows = new ArrayList<>();
        if (answer.status() == 404) {
            return rows;
        }
        for (JsonNode k : data.path("keys")) {
            JsonNode info = data.path("key_info").path(k.asText());
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("issuer_id", k.asText());
            row.put("issuer_name", info.path("issuer_name").asText(""));
            row.put("key_id", info.path("key_id").asText(""));
            row.put("is_default", info.path("is_default").asBoolean(false));
            rows.add(row);
        }
        return rows;
    }
}
