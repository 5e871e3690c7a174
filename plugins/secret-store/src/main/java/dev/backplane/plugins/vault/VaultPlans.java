package dev.backplane.plugins.vault;

import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.ErrorCode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The one HTTP request each HTTP-shaped operation sends, built from validated parameters. The same plan
 * is what a call sends and what its preview shows (with secret values replaced), so a dangerous call's
 * preview hash covers exactly the request that runs.
 */
final class VaultPlans {

    private VaultPlans() {
    }

    /** The request of {@code opId}; empty for composite operations (rollback). */
    static Optional<VaultRequest> plan(String opId, VaultParams p) {
        return Optional.ofNullable(switch (opId) {
            case "vault.kv.list" -> kvList(p);
            case "vault.kv.read" -> kvRead(p);
            case "vault.kv.metadata", "vault.kv.versions" -> VaultRequest.get(kv(p, "metadata"));
            case "vault.kv.write" -> kvWrite(p);
            case "vault.kv.patch" -> kvPatch(p);
            case "vault.kv.delete" -> kvDelete(p);
            case "vault.kv.undelete" -> VaultRequest.send("POST", kv(p, "undelete"), Map.of("versions", p.versions(true)));
            case "vault.kv.destroy" -> kvDestroy(p);
            case "vault.kv.rollback" -> null;
            case "vault.sys.health" -> VaultRequest.get("/v1/sys/health");
            case "vault.sys.seal-status" -> VaultRequest.get("/v1/sys/seal-status");
            case "vault.mount.list" -> VaultRequest.get("/v1/sys/mounts");
            case "vault.mount.enable" -> mountEnable(p);
            case "vault.mount.disable" -> VaultRequest.delete("/v1/sys/mounts/" + p.path());
            case "vault.sys.auth-list" -> VaultRequest.get("/v1/sys/auth");
            case "vault.sys.audit-list" -> VaultRequest.get("/v1/sys/audit");
            case "vault.policy.list" -> VaultRequest.list("/v1/sys/policies/acl");
            case "vault.policy.read" -> VaultRequest.get("/v1/sys/policies/acl/" + p.name());
            case "vault.policy.write" -> VaultRequest.send("POST", "/v1/sys/policies/acl/" + p.name(),
                    Map.of("policy", p.requiredText("policy", VaultParams.MAX_POLICY)));
            case "vault.policy.delete" -> VaultRequest.delete("/v1/sys/policies/acl/" + p.name());
            case "vault.lease.list" -> VaultRequest.list("/v1/sys/leases/lookup/" + p.leaseId("prefix") + "/");
            case "vault.lease.lookup" -> VaultRequest.send("POST", "/v1/sys/leases/lookup",
                    Map.of("lease_id", p.leaseId("lease_id")));
            case "vault.lease.revoke" -> VaultRequest.send("POST", "/v1/sys/leases/revoke",
                    Map.of("lease_id", p.leaseId("lease_id")));
            case "vault.token.lookup-self" -> VaultRequest.get("/v1/auth/token/lookup-self");
            case "vault.token.role-list" -> VaultRequest.list("/v1/auth/token/roles");
            case "vault.token.role-read" -> VaultRequest.get("/v1/auth/token/roles/" + p.name());
            case "vault.approle.role-list" -> VaultRequest.list("/v1/auth/" + p.mount("approle") + "/role");
            case "vault.approle.role-read" -> VaultRequest.get("/v1/auth/" + p.mount("approle") + "/role/" + p.name());
            case "vault.kubernetes.role-list" -> VaultRequest.list("/v1/auth/" + p.mount("kubernetes") + "/role");
            case "vault.kubernetes.role-read" -> VaultRequest.get("/v1/auth/" + p.mount("kubernetes") + "/role/"
                    + p.name());
            case "vault.pki.issuer-list" -> VaultRequest.list("/v1/" + p.mount("pki") + "/issuers");
            case "vault.pki.cert-list" -> VaultRequest.list("/v1/" + p.mount("pki") + "/certs");
            case "vault.pki.cert-read" -> VaultRequest.get("/v1/" + p.mount("pki") + "/cert/" + p.serial());
            case "vault.pki.issue" -> pkiIssue(p);
            default -> throw new ConnectorException(ErrorCode.UNKNOWN_OPERATION, "unknown operation " + opId);
        });
    }

    /** {@code /v1/<mount>/<kind>/<path>}: a KV v2 API path. */
    static String kv(VaultParams p, String kind) {
        return "/v1/" + p.mount("secret") + "/" + kind + "/" + p.path();
    }

    private static VaultRequest kvList(VaultParams p) {
        String folder = p.optionalPath();
        String base = "/v1/" + p.mount("secret") + (p.kvVersion() == 2 ? "/metadata/" : "/");
        return VaultRequest.list(base + (folder.isEmpty() ? "" : folder + "/"));
    }

    private static VaultRequest kvRead(VaultParams p) {
        if (p.kvVersion() == 1) {
            if (p.optionalInt("version", 1, Integer.MAX_VALUE) != null) {
                throw VaultParams.invalid("version", "absent for KV v1 (it keeps no versions)");
            }
            return VaultRequest.get("/v1/" + p.mount("secret") + "/" + p.path());
        }
        // subkeys answers the structure with every value null: the values never leave Vault at all
        VaultRequest r = VaultRequest.get(kv(p, "subkeys")).withQuery("depth", "1");
        Integer version = p.optionalInt("version", 1, Integer.MAX_VALUE);
        return version == null ? r : r.withQuery("version", version.toString());
    }

    private static VaultRequest kvWrite(VaultParams p) {
        Map<String, String> data = p.data();
        Integer cas = p.optionalInt("cas", 0, Integer.MAX_VALUE);
        if (p.kvVersion() == 1) {
            if (cas != null) {
                throw VaultParams.invalid("cas", "absent for KV v1 (it has no check-and-set)");
            }
            // a KV v1 body is the fields themselves: every top-level value is secret
            return VaultRequest.send("POST", "/v1/" + p.mount("secret") + "/" + p.path(), data)
                    .withSecretKeys(data.keySet().toArray(String[]::new));
        }
        return VaultRequest.send("POST", kv(p, "data"), v2Body(data, cas)).withSecretKeys("data");
    }

    private static VaultRequest kvPatch(VaultParams p) {
        Map<String, String> data = p.data();
        return VaultRequest.send("PATCH", kv(p, "data"), v2Body(data, p.optionalInt("cas", 0, Integer.MAX_VALUE)))
                .withContentType("application/merge-patch+json").withSecretKeys("data");
    }

    static Map<String, Object> v2Body(Map<String, ?> data, Integer cas) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("options", cas == null ? Map.of() : Map.of("cas", cas));
        body.put("data", data);
        return body;
    }

    private static VaultRequest kvDelete(VaultParams p) {
        List<Integer> versions = p.versions(false);
        return versions.isEmpty() ? VaultRequest.delete(kv(p, "data"))
                : VaultRequest.send("POST", kv(p, "delete"), Map.of("versions", versions));
    }

    private static VaultRequest kvDestroy(VaultParams p) {
        if (p.kvVersion() == 1) {
            if (!p.versions(false).isEmpty()) {
                throw VaultParams.invalid("versions", "absent for KV v1 (it keeps no versions)");
            }
            return VaultRequest.delete("/v1/" + p.mount("secret") + "/" + p.path());
        }
        return VaultRequest.send("POST", kv(p, "destroy"), Map.of("versions", p.versions(true)));
    }

    /** {@code POST /v1/<mount>/issue/<role>}: the request carries names and a ttl only, nothing secret. */
    private static VaultRequest pkiIssue(VaultParams p) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("common_name", p.commonName());
        String alt = p.altNames();
        if (alt != null) {
            body.put("alt_names", alt);
        }
        String ttl = p.ttl();
        if (ttl != null) {
            body.put("ttl", ttl);
        }
        return VaultRequest.send("POST", "/v1/" + p.mount("pki") + "/issue/" + p.role(), body);
    }

    private static VaultRequest mountEnable(VaultParams p) {
        Map<String, Object> body = new LinkedHashMap<>();
        String type = p.type();
        body.put("type", type);
        String description = p.optionalText("description", 1024);
        if (description != null) {
            body.put("description", description);
        }
        Integer kv = p.optionalInt("kv_version", 1, 2);
        if (kv != null) {
            if (!type.equals("kv")) {
                throw VaultParams.invalid("kv_version", "absent unless type is kv");
            }
            body.put("options", Map.of("version", kv.toString()));
        }
        return VaultRequest.send("POST", "/v1/sys/mounts/" + p.path(), body);
    }
}
