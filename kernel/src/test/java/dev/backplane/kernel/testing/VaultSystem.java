package dev.backplane.kernel.testing;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.testing.VaultKvEngine.Reply;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The non-KV state of {@link VaultDouble} and its answers, shaped like Vault's API documentation:
 * health and seal status, the mount and auth tables, audit devices, ACL policies, leases, token
 * lookup-self and roles, AppRole and Kubernetes auth roles, and a PKI mount with one issuer and one
 * certificate. Mounting a {@code kv} engine creates a KV engine; disabling a mount drops it.
 */
final class VaultSystem {

    private static final String CERT = """
            -----BEGIN CERTIFICATE-----
            MIIBszCCAVmgAwIBAgIUF2cWsLlFWMA6KePL1pgzeqY7ZsEwCgYIKoZIzj0EAwIw
            FjEUMBIGA1UEAxMLZXhhbXBsZS5jb20wHhcNMjQwMTAxMDAwMDAwWhcNMzQwMTAx
            -----END CERTIFICATE-----""";

    /** The PKI role {@code issue/<role>} accepts. */
    static final String PKI_ROLE = "web";

    volatile String version = "1.15.2";
    volatile String issuedKey = """
            -----BEGIN EC PRIVATE KEY-----
            MHcCAQEEIBkK0ZqGzYqM0m1c8w1x2S5Zr9n4Yb2m3Qk7Jq6oV5pDoAoGCCqGSM49
            -----END EC PRIVATE KEY-----""";
    final List<String> issued = new java.util.concurrent.CopyOnWriteArrayList<>();
    volatile boolean sealed;
    final Map<String, Map<String, Object>> mounts = new ConcurrentHashMap<>();
    final Map<String, Map<String, Object>> auths = new ConcurrentHashMap<>();
    final Map<String, String> policies = new ConcurrentHashMap<>();
    final Map<String, Map<String, Object>> leases = new ConcurrentHashMap<>();
    private final Map<String, VaultKvEngine> kv = new ConcurrentHashMap<>();
    private final Map<String, Map<String, Map<String, Object>>> roles = new ConcurrentHashMap<>();
    private final Map<String, Map<String, Object>> tokenRoles = new TreeMap<>();

    VaultSystem(String kv2Mount, String kv1Mount) {
        mount(kv2Mount, "kv", "key/value secret storage", Map.of("version", "2"));
        mount(kv1Mount, "kv", "key/value secret storage, version 1", Map.of("version", "1"));
        mount("cubbyhole", "cubbyhole", "per-token private secret storage", null);
        mount("identity", "identity", "identity store", null);
        mount("sys", "system", "system endpoints used for control, policy and debugging", null);
        mount("pki", "pki", "", null);
        auths.put("token/", entry("token", "token based credentials", null, "auth_token_"));
        auths.put("approle/", entry("approle", "", null, "auth_approle_"));
        auths.put("kubernetes/", entry("kubernetes", "", null, "auth_kubernetes_"));
        policies.put("root", "");
        policies.put("default", "path \"auth/token/lookup-self\" {\n    capabilities = [\"read\"]\n}\n");
        policies.put("deploy", "path \"secret/data/apps/*\" {\n  capabilities = [\"read\", \"list\"]\n}\n");
        Map<String, Object> lease = new LinkedHashMap<>();
        lease.put("id", VaultDouble.LEASE_ID);
        lease.put("issue_time", "2024-04-30T10:18:11.228946471Z");
        lease.put("expire_time", "2034-04-30T11:18:11.228946708Z");
        lease.put("last_renewal", null);
        lease.put("renewable", true);
        lease.put("ttl", 3558);
        leases.put(VaultDouble.LEASE_ID, lease);
        roles.put("approle/", new TreeMap<>(Map.of("ci", approleRole())));
        roles.put("kubernetes/", new TreeMap<>(Map.of("web", kubernetesRole())));
        tokenRoles.put("nomad", Map.of("allowed_policies", List.of("nomad"), "disallowed_policies", List.of(),
                "explicit_max_ttl", 0, "name", "nomad", "orphan", false, "path_suffix", "", "period", 0,
                "renewable", true, "token_type", "default-service"));
    }

    /** The role {@code name} of the auth method mounted at {@code authMount} (e.g. {@code kubernetes}), if any. */
    Optional<Map<String, Object>> role(String authMount, String name) {
        return Optional.ofNullable(roles.get(authMount + "/")).map(r -> r.get(name));
    }

    /** The type of the auth method mounted at {@code authMount} ({@code approle}, {@code kubernetes}...), if any. */
    Optional<String> authType(String authMount) {
        return Optional.ofNullable(auths.get(authMount + "/")).map(e -> String.valueOf(e.get("type")));
    }

    Optional<VaultKvEngine> kv(String mount) {
        return Optional.ofNullable(kv.get(mount));
    }

    List<String> kvMounts() {
        List<String> out = new ArrayList<>(kv.keySet());
        out.sort((a, b) -> b.length() - a.length()); // the longest mount wins
        return out;
    }

    private void mount(String path, String type, String description, Map<String, String> options) {
        mounts.put(path + "/", entry(type, description, options, type + "_"));
        if (type.equals("kv")) {
            kv.put(path, new VaultKvEngine(options == null || !"1".equals(options.get("version"))));
        }
    }

    private static Map<String, Object> entry(String type, String description, Map<String, String> options,
                                             String accessorPrefix) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("accessor", accessorPrefix + UUID.randomUUID().toString().substring(0, 8));
        m.put("config", Map.of("default_lease_ttl", 0, "force_no_cache", false, "max_lease_ttl", 0));
        m.put("description", description);
        m.put("external_entropy_access", false);
        m.put("local", false);
        m.put("options", options);
        m.put("plugin_version", "");
        m.put("running_plugin_version", "v1.15.2+builtin.vault");
        m.put("running_sha256", "");
        m.put("seal_wrap", false);
        m.put("type", type);
        m.put("uuid", UUID.randomUUID().toString());
        return m;
    }

    /** sys/health as Vault's API documentation shows it; a sealed server names no cluster. */
    Map<String, Object> health() {
        String cluster = sealed ? "" : """
                "cluster_name": "vault-cluster-double", "cluster_id": "1a3a5c1e-0b2d-4f27-9d53-000000000001",""";
        return VaultDouble.object("""
                {"initialized": true, "sealed": %s, "standby": false, "performance_standby": false,
                 "replication_performance_mode": "disabled", "replication_dr_mode": "disabled",
                 "server_time_utc": %d, "version": "%s", "enterprise": false, %s
                 "echo_duration_ms": 0, "clock_skew_ms": 0}""".formatted(sealed, Instant.now().getEpochSecond(), version,
                cluster));
    }

    Map<String, Object> sealStatus() {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("type", "shamir");
        s.put("initialized", true);
        s.put("sealed", sealed);
        s.put("t", 3);
        s.put("n", 5);
        s.put("progress", 0);
        s.put("nonce", "");
        s.put("version", version);
        s.put("build_date", "2023-11-06T11:33:28Z");
        s.put("migration", false);
        s.put("cluster_name", "vault-cluster-double");
        s.put("cluster_id", "1a3a5c1e-0b2d-4f27-9d53-000000000001");
        s.put("recovery_seal", false);
        s.put("storage_type", "raft");
        return s;
    }

    Map<String, Object> lookupSelf(String token, boolean privileged) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("accessor", "8609694a-cdbc-db9b-d345-e782dbb562ed");
        d.put("creation_time", 1523979354);
        d.put("creation_ttl", 2764800);
        d.put("display_name", privileged ? "root" : "token-limited");
        d.put("entity_id", "");
        d.put("expire_time", null);
        d.put("explicit_max_ttl", 0);
        d.put("id", token); // Vault answers the token itself here; a client must not pass it on
        d.put("meta", null);
        d.put("num_uses", 0);
        d.put("orphan", true);
        d.put("path", privileged ? "auth/token/root" : "auth/token/create");
        d.put("policies", privileged ? List.of("root") : List.of("default"));
        d.put("ttl", 0);
        d.put("type", "service");
        return d;
    }

    /** Answers the sys, auth and pki paths; empty for everything else (the KV mounts). */
    Optional<Reply> handle(String method, String rest, boolean list, JsonNode body) {
        String write = method.equals("PUT") ? "POST" : method;
        if (rest.equals("sys/mounts") && method.equals("GET")) {
            return Optional.of(table(mounts));
        }
        if (rest.startsWith("sys/mounts/")) {
            return Optional.of(mountChange(write, rest.substring("sys/mounts/".length()), body));
        }
        if (rest.equals("sys/auth") && method.equals("GET")) {
            return Optional.of(table(auths));
        }
        if (rest.equals("sys/audit") && method.equals("GET")) {
            Map<String, Object> file = Map.of("type", "file", "description", "", "local", false, "path", "file/",
                    "options", Map.of("file_path", "/var/log/vault_audit.log"));
            return Optional.of(table(Map.of("file/", file)));
        }
        if (rest.equals("sys/policies/acl") || rest.equals("sys/policies/acl/")) {
            return Optional.of(list ? keys(policies.keySet()) : Reply.error(405, "unsupported operation"));
        }
        if (rest.startsWith("sys/policies/acl/")) {
            return Optional.of(policy(write, rest.substring("sys/policies/acl/".length()), body));
        }
        if (rest.startsWith("sys/leases/")) {
            return Optional.of(lease(write, rest.substring("sys/leases/".length()), list, body));
        }
        if (rest.startsWith("auth/token/roles")) {
            String name = rest.replaceFirst("^auth/token/roles/?", "");
            return Optional.of(list ? keys(tokenRoles.keySet()) : read(tokenRoles.get(name)));
        }
        for (String authMount : roles.keySet()) {
            String prefix = "auth/" + authMount + "role";
            if (rest.startsWith(prefix)) {
                String name = rest.substring(prefix.length()).replaceFirst("^/", "");
                Map<String, Map<String, Object>> r = roles.get(authMount);
                return Optional.of(list ? keys(r.keySet()) : read(r.get(name)));
            }
        }
        if (rest.startsWith("pki/")) {
            return Optional.of(pki(write, rest.substring(4), list, body));
        }
        return Optional.empty();
    }

    private static Reply read(Map<String, Object> data) {
        return data == null ? Reply.error(404) : Reply.of(data);
    }

    private static Reply keys(java.util.Collection<String> keys) {
        return keys.isEmpty() ? Reply.error(404) : Reply.of(Map.of("keys", new java.util.TreeSet<>(keys).stream().toList()));
    }

    /** Vault answers the mount and auth tables twice: top-level (legacy) and under data. */
    private static Reply table(Map<String, Map<String, Object>> entries) {
        Map<String, Object> sorted = new TreeMap<>(entries);
        Map<String, Object> body = new LinkedHashMap<>(sorted);
        body.putAll(VaultDouble.envelope(sorted));
        return new Reply(200, body);
    }

    private Reply mountChange(String method, String path, JsonNode body) {
        String key = path.endsWith("/") ? path : path + "/";
        return switch (method) {
            case "POST" -> {
                if (mounts.containsKey(key)) {
                    yield Reply.error(400, "path is already in use at " + key);
                }
                String type = body.path("type").asText();
                if (type.isEmpty()) {
                    yield Reply.error(400, "backend type must be specified as a string");
                }
                Map<String, String> options = body.path("options").isObject()
                        ? Map.of("version", body.path("options").path("version").asText("1")) : null;
                mount(key.substring(0, key.length() - 1), type, body.path("description").asText(""), options);
                yield Reply.none();
            }
            case "DELETE" -> {
                mounts.remove(key);
                kv.remove(key.substring(0, key.length() - 1));
                yield Reply.none();
            }
            default -> Reply.error(405, "unsupported operation");
        };
    }

    private Reply policy(String method, String name, JsonNode body) {
        return switch (method) {
            case "GET" -> policies.containsKey(name) ? Reply.of(Map.of("name", name, "rules", policies.get(name),
                    "policy", policies.get(name))) : Reply.error(404);
            case "POST" -> {
                if (!body.path("policy").isTextual()) {
                    yield Reply.error(400, "'policy' parameter not supplied or empty");
                }
                policies.put(name, body.path("policy").asText());
                yield Reply.none();
            }
            case "DELETE" -> {
                if (name.equals("root") || name.equals("default")) {
                    yield Reply.error(400, "cannot delete \"" + name + "\" policy");
                }
                policies.remove(name);
                yield Reply.none();
            }
            default -> Reply.error(405, "unsupported operation");
        };
    }

    private Reply lease(String method, String rest, boolean list, JsonNode body) {
        if (list && rest.startsWith("lookup/")) {
            String prefix = rest.substring("lookup/".length());
            List<String> keys = leases.keySet().stream().filter(id -> id.startsWith(prefix))
                    .map(id -> id.substring(prefix.length())).toList();
            return keys(keys);
        }
        String id = body.path("lease_id").asText();
        if (method.equals("POST") && rest.equals("lookup")) {
            return leases.containsKey(id) ? Reply.of(leases.get(id)) : Reply.error(400, "invalid lease");
        }
        if (method.equals("POST") && rest.equals("revoke")) {
            leases.remove(id);
            return Reply.none();
        }
        return Reply.error(405, "unsupported operation");
    }

    private Reply pki(String method, String rest, boolean list, JsonNode body) {
        if (rest.startsWith("issue/")) {
            return issue(method, rest.substring("issue/".length()), body);
        }
        if (list && rest.startsWith("issuers")) {
            return Reply.of(Map.of("keys", List.of(VaultDouble.ISSUER_ID), "key_info", Map.of(VaultDouble.ISSUER_ID,
                    Map.of("issuer_name", "root-2024", "is_default", true, "key_id",
                            "b2c83a3f-2c4d-4a0b-8b8b-1b7e2c6f4b3e", "serial_number", VaultDouble.CERT_SERIAL))));
        }
        if (list && rest.startsWith("certs")) {
            return keys(List.of(VaultDouble.CERT_SERIAL));
        }
        if (rest.startsWith("cert/")) {
            String serial = rest.substring("cert/".length());
            return serial.equals(VaultDouble.CERT_SERIAL) || serial.equals(VaultDouble.CERT_SERIAL.replace(':', '-'))
                    ? Reply.of(Map.of("certificate", CERT, "issuer_id", VaultDouble.ISSUER_ID, "revocation_time", 0,
                    "revocation_time_rfc3339", "")) : Reply.error(404);
        }
        return Reply.error(404, "no handler for route \"pki/" + rest + "\". route entry not found.");
    }

    /**
     * {@code POST /v1/pki/issue/<role>} as Vault documents it: certificate, issuing_ca, ca_chain,
     * private_key, private_key_type, serial_number and expiration (Unix seconds) under data.
     */
    private Reply issue(String method, String role, JsonNode body) {
        if (!method.equals("POST")) {
            return Reply.error(405, "unsupported operation");
        }
        if (!role.equals(PKI_ROLE)) {
            return Reply.error(400, "unknown role: " + role);
        }
        String cn = body.path("common_name").asText("");
        if (cn.isEmpty()) {
            return Reply.error(400, "the common_name field is required, or must be provided in a CSR with "
                    + "\"use_csr_common_name\" set to true, unless \"require_cn\" is set to false");
        }
        byte[] raw = new byte[20];
        new java.security.SecureRandom().nextBytes(raw);
        StringBuilder serial = new StringBuilder();
        for (byte b : raw) {
            serial.append(serial.isEmpty() ? "" : ":").append(String.format("%02x", b & 0xff));
        }
        issued.add(serial.toString());
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("ca_chain", List.of(CERT));
        d.put("certificate", CERT.replace("MIIBszCCAVmgAwIBAgIU", "MIIBtDCCAVqgAwIBAgIU"));
        d.put("expiration", Instant.now().plusSeconds(72 * 3600).getEpochSecond());
        d.put("issuing_ca", CERT);
        d.put("private_key", issuedKey);
        d.put("private_key_type", "ec");
        d.put("serial_number", serial.toString());
        return Reply.of(d);
    }

    private static Map<String, Object> approleRole() {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("bind_secret_id", true);
        r.put("local_secret_ids", false);
        r.put("secret_id_bound_cidrs", null);
        r.put("secret_id_num_uses", 0);
        r.put("secret_id_ttl", 600);
        r.put("token_bound_cidrs", List.of());
        r.put("token_explicit_max_ttl", 0);
        r.put("token_max_ttl", 1800);
        r.put("token_no_default_policy", false);
        r.put("token_num_uses", 0);
        r.put("token_period", 0);
        r.put("token_policies", List.of("deploy"));
        r.put("token_ttl", 1200);
        r.put("token_type", "default");
        return r;
    }

    private static Map<String, Object> kubernetesRole() {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("alias_name_source", "serviceaccount_uid");
        r.put("audience", "");
        r.put("bound_service_account_names", List.of("web"));
        r.put("bound_service_account_namespaces", List.of("shop"));
        r.put("token_bound_cidrs", List.of());
        r.put("token_max_ttl", 0);
        r.put("token_policies", List.of("deploy"));
        r.put("token_ttl", 3600);
        r.put("token_type", "default");
        return r;
    }
}
