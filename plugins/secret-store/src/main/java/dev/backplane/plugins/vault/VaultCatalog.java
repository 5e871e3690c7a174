package dev.backplane.plugins.vault;

import dev.backplane.plugin.api.Catalog;
import dev.backplane.plugin.api.OpClass;
import dev.backplane.plugin.api.OperationDescriptor;
import dev.backplane.plugin.api.OperationGroup;
import dev.backplane.plugin.api.OperationShape;
import dev.backplane.plugin.api.ResultKind;
import dev.backplane.plugin.api.SafetyLevel;
import java.util.List;

/**
 * The vault-1.x operations: what an operator uses day to day, grouped kv, sys, auth and pki. Reads are
 * safe; writes caution; what destroys or disrupts (destroying versions, disabling a mount, deleting a
 * policy, revoking a lease) is dangerous and needs a preview hash. Every op id starts with
 * {@code vault.}, so the CLI's family verbs are {@code svc vault <noun> <verb>}. No operation returns a
 * secret value: KV reads answer key names, versions and metadata.
 */
final class VaultCatalog {

    private VaultCatalog() {
    }

    private static String str(String name, String regex, String description) {
        return "\"%s\": {\"type\": \"string\", \"pattern\": \"%s\", \"description\": \"%s\"}"
                .formatted(name, regex.replace("\\", "\\\\"), description);
    }

    private static String mount(String what, String fallback) {
        return str("mount", VaultParams.PATH, "the " + what + "'s mount path (default " + fallback + ")");
    }

    private static final String KV_MOUNT = mount("secrets engine", "secret");
    private static final String PATH = str("path", VaultParams.PATH, "the secret's path inside the mount");
    private static final String NAME = str("name", VaultParams.NAME, "the %s's name");
    private static final String KV_VERSION = """
            "kv_version": {"type": "integer", "enum": [1, 2], "description": "the KV engine version of the mount (default 2)"}""";
    private static final String VERSIONS = """
            "versions": {"type": "array", "minItems": 1, "maxItems": %d, "items": {"type": ["integer", "string"], "minimum": 1, "pattern": "^[1-9][0-9]{0,8}$"}, "description": "version numbers (digit strings, as the CLI sends repeated flags, are accepted)"}"""
            .formatted(VaultParams.MAX_VERSIONS);
    private static final String DATA = """
            "data": {"type": "object", "minProperties": 1, "maxProperties": %d, "propertyNames": {"pattern": "%s"}, "additionalProperties": {"type": "string", "maxLength": %d}, "description": "the fields to write; their values are secret: never shown in previews, results or audit rows"}"""
            .formatted(VaultParams.MAX_FIELDS, VaultParams.KEY.replace("\\", "\\\\"), VaultParams.MAX_VALUE);
    private static final String CAS = """
            "cas": {"type": "integer", "minimum": 0, "description": "check-and-set: write only if the current version is this (0: only if the secret does not exist)"}""";

    private static String obj(List<String> required, String... props) {
        return "{\"type\": \"object\", \"additionalProperties\": false, \"required\": %s, \"properties\": {%s}}"
                .formatted(required.stream().map(r -> "\"" + r + "\"").toList(), String.join(", ", props));
    }

    private static final String NONE = obj(List.of());
    private static final String KV_LIST = obj(List.of(), KV_MOUNT,
            PATH.replace("the secret's path", "the folder to list (default: the mount's root)"), KV_VERSION);
    private static final String KV_PATH = obj(List.of("path"), KV_MOUNT, PATH);
    private static final String KV_READ = obj(List.of("path"), KV_MOUNT, PATH, KV_VERSION, """
            "version": {"type": "integer", "minimum": 1, "description": "a KV v2 version (default the current one)"}""");
    private static final String KV_WRITE = obj(List.of("path", "data"), KV_MOUNT, PATH, DATA, CAS,
            KV_VERSION);
    private static final String KV_PATCH = obj(List.of("path", "data"), KV_MOUNT, PATH, DATA, CAS);
    private static final String KV_VERSIONS = obj(List.of("path", "versions"), KV_MOUNT, PATH, VERSIONS);
    private static final String KV_DELETE = obj(List.of("path"), KV_MOUNT, PATH,
            VERSIONS.replace("\"version numbers", "\"the versions to delete (default: the current one)"));
    private static final String KV_DESTROY = obj(List.of("path"), KV_MOUNT, PATH,
            VERSIONS.replace("\"version numbers", "\"KV v2: the versions to destroy (required)"), KV_VERSION);
    private static final String KV_ROLLBACK = obj(List.of("path", "version"), KV_MOUNT, PATH, """
            "version": {"type": "integer", "minimum": 1, "description": "the version whose data becomes the new current version"}""");
    private static final String MOUNT_PATH = obj(List.of("path"),
            str("path", VaultParams.PATH, "the mount path"));
    private static final String MOUNT_ENABLE = obj(List.of("path", "type"), str("path", VaultParams.PATH, "the mount path"),
            str("type", VaultParams.TYPE, "the engine type, such as kv, pki, transit"), """
            "description": {"type": "string", "maxLength": 1024, "description": "a description of the mount"}""", """
            "kv_version": {"type": "integer", "enum": [1, 2], "description": "for type kv: the KV version (options.version)"}""");
    private static final String POLICY_NAME = obj(List.of("name"), NAME.formatted("policy"));
    private static final String POLICY_WRITE = obj(List.of("name", "policy"), NAME.formatted("policy"), """
            "policy": {"type": "string", "minLength": 1, "maxLength": %d, "description": "the policy document (HCL or JSON)"}"""
            .formatted(VaultParams.MAX_POLICY));
    private static final String LEASE = obj(List.of("lease_id"), str("lease_id", VaultParams.PATH, "the lease id"));
    private static final String LEASE_PREFIX = obj(List.of("prefix"), str("prefix", VaultParams.PATH,
            "the lease prefix, such as database/creds/readonly"));
    private static final String ROLE_NAME = obj(List.of("name"), NAME.formatted("role"));
    private static final String APPROLE_LIST = obj(List.of(), mount("auth method", "approle"));
    private static final String APPROLE_READ = obj(List.of("name"), mount("auth method", "approle"),
            NAME.formatted("role"));
    private static final String K8S_LIST = obj(List.of(), mount("auth method", "kubernetes"));
    private static final String K8S_READ = obj(List.of("name"), mount("auth method", "kubernetes"),
            NAME.formatted("role"));
    private static final String PKI_LIST = obj(List.of(), mount("PKI engine", "pki"));
    private static final String PKI_CERT = obj(List.of("serial"), mount("PKI engine", "pki"),
            str("serial", VaultParams.SERIAL, "the certificate's serial number (hex pairs joined by ':' or '-')"));

    private static final String PKI_ISSUE = obj(List.of("role", "common_name"), mount("PKI engine", "pki"),
            str("role", VaultParams.NAME, "the PKI role to issue with"),
            str("common_name", VaultParams.CERT_NAME, "the certificate's common name"), """
            "alt_names": {"type": "array", "minItems": 1, "maxItems": %d, "items": {"type": "string", "pattern": "%s"}, "description": "subject alternative names (DNS names or email addresses)"}"""
                    .formatted(VaultParams.MAX_ALT_NAMES, VaultParams.CERT_NAME.replace("\\", "\\\\")),
            str("ttl", VaultParams.TTL, "the requested lifetime: seconds, or a number with unit s, m or h (such as 72h)"));

    static final Catalog CATALOG = new Catalog(
            List.of(new OperationGroup("kv", "Key/value secrets", "listing secrets and reading their key names, versions "
                            + "and metadata (never values); writing, patching, deleting, undeleting, destroying and rolling "
                            + "back KV v1/v2 secrets"),
                    new OperationGroup("sys", "Vault system", "health and seal status; secrets engine mounts; auth methods "
                            + "and audit devices; ACL policies; leases"),
                    new OperationGroup("auth", "Auth methods", "the backplane's own token; token roles; AppRole and "
                            + "Kubernetes auth roles"),
                    new OperationGroup("pki", "PKI", "certificate issuers and issued certificates of a PKI mount; "
                            + "issuing a certificate with a role (its private key is staged at a secret_ref, never returned)")),
            List.of(
                    read("vault.kv.list", "kv", "Lists the keys under a folder of a KV mount: key, folder", KV_LIST,
                            "GET", "/v1/{mount}/metadata/{path}", ResultKind.SET),
                    read("vault.kv.read", "kv", "A secret's field names and version metadata (KV v2 subkeys; KV v1 "
                            + "field names) — never the values", KV_READ, "GET", "/v1/{mount}/subkeys/{path}",
                            ResultKind.OBJECT),
                    read("vault.kv.metadata", "kv", "A KV v2 secret's metadata: current and oldest version, "
                            + "max_versions, cas_required, custom_metadata, times", KV_PATH, "GET",
                            "/v1/{mount}/metadata/{path}", ResultKind.OBJECT),
                    read("vault.kv.versions", "kv", "A KV v2 secret's versions (metadata only): version, "
                            + "created_time, deletion_time, destroyed, state", KV_PATH, "GET",
                            "/v1/{mount}/metadata/{path}", ResultKind.SET),
                    write("vault.kv.write", "kv", "Writes a secret (KV v2: a new version, optionally check-and-set); "
                            + "the values never appear in previews, results, approvals or audit", KV_WRITE,
                            SafetyLevel.CAUTION, "POST", "/v1/{mount}/data/{path}").withSecretParams("data"),
                    write("vault.kv.patch", "kv", "Merges fields into a KV v2 secret's current version (a new version)",
                            KV_PATCH, SafetyLevel.CAUTION, "PATCH", "/v1/{mount}/data/{path}").withSecretParams("data"),
                    write("vault.kv.delete", "kv", "Soft-deletes KV v2 versions (default the current one); "
                            + "undelete restores them", KV_DELETE, SafetyLevel.CAUTION, "POST", "/v1/{mount}/delete/{path}"),
                    write("vault.kv.undelete", "kv", "Restores soft-deleted KV v2 versions", KV_VERSIONS,
                            SafetyLevel.CAUTION, "POST", "/v1/{mount}/undelete/{path}"),
                    write("vault.kv.destroy", "kv", "Permanently destroys KV v2 versions (with kv_version 1: deletes "
                            + "the secret, which KV v1 cannot recover)", KV_DESTROY, SafetyLevel.DANGEROUS, "POST",
                            "/v1/{mount}/destroy/{path}"),
                    new OperationDescriptor("vault.kv.rollback", "kv", "Makes an earlier KV v2 version current again: "
                            + "writes its data as a new version, check-and-set on the current version; the data "
                            + "stays inside the connector", SafetyLevel.CAUTION, true, OpClass.WRITE, KV_ROLLBACK,
                            new OperationShape.Composite(), ResultKind.OBJECT),
                    read("vault.sys.health", "sys", "Health: initialized, sealed, standby, version, cluster", NONE,
                            "GET", "/v1/sys/health", ResultKind.OBJECT),
                    read("vault.sys.seal-status", "sys", "Seal status: sealed, threshold, shares, progress, version",
                            NONE, "GET", "/v1/sys/seal-status", ResultKind.OBJECT),
                    read("vault.mount.list", "sys", "The secrets engine mounts: path, type, description, accessor, "
                            + "version", NONE, "GET", "/v1/sys/mounts", ResultKind.SET),
                    write("vault.mount.enable", "sys", "Enables a secrets engine at a path", MOUNT_ENABLE,
                            SafetyLevel.CAUTION, "POST", "/v1/sys/mounts/{path}"),
                    write("vault.mount.disable", "sys", "Disables a secrets engine: every secret and lease under it is "
                            + "gone", MOUNT_PATH, SafetyLevel.DANGEROUS, "DELETE", "/v1/sys/mounts/{path}"),
                    read("vault.sys.auth-list", "sys", "The enabled auth methods: path, type, description, accessor",
                            NONE, "GET", "/v1/sys/auth", ResultKind.SET),
                    read("vault.sys.audit-list", "sys", "The enabled audit devices: path, type, description, options",
                            NONE, "GET", "/v1/sys/audit", ResultKind.SET),
                    read("vault.policy.list", "sys", "The ACL policy names", NONE, "GET", "/v1/sys/policies/acl",
                            ResultKind.SET),
                    read("vault.policy.read", "sys", "An ACL policy's document", POLICY_NAME, "GET",
                            "/v1/sys/policies/acl/{name}", ResultKind.OBJECT),
                    write("vault.policy.write", "sys", "Creates or replaces an ACL policy", POLICY_WRITE,
                            SafetyLevel.CAUTION, "POST", "/v1/sys/policies/acl/{name}"),
                    write("vault.policy.delete", "sys", "Deletes an ACL policy (tokens holding it lose its grants)",
                            POLICY_NAME, SafetyLevel.DANGEROUS, "DELETE", "/v1/sys/policies/acl/{name}"),
                    read("vault.lease.list", "sys", "The lease ids under a prefix", LEASE_PREFIX, "GET",
                            "/v1/sys/leases/lookup/{prefix}", ResultKind.SET),
                    read("vault.lease.lookup", "sys", "A lease: issue, expiry and last renewal times, ttl, renewable",
                            LEASE, "POST", "/v1/sys/leases/lookup", ResultKind.OBJECT),
                    write("vault.lease.revoke", "sys", "Revokes a lease: the credential it backs stops working",
                            LEASE, SafetyLevel.DANGEROUS, "POST", "/v1/sys/leases/revoke"),
                    read("vault.token.lookup-self", "auth", "The backplane's own token: policies, ttl, accessor, "
                            + "display name (never the token itself)", NONE, "GET", "/v1/auth/token/lookup-self",
                            ResultKind.OBJECT),
                    read("vault.token.role-list", "auth", "The token role names", NONE, "GET", "/v1/auth/token/roles",
                            ResultKind.SET),
                    read("vault.token.role-read", "auth", "A token role's settings", ROLE_NAME, "GET",
                            "/v1/auth/token/roles/{name}", ResultKind.OBJECT),
                    read("vault.approle.role-list", "auth", "The AppRole role names", APPROLE_LIST,
                            "GET", "/v1/auth/{mount}/role", ResultKind.SET),
                    read("vault.approle.role-read", "auth", "An AppRole role's settings (never a secret id)",
                            APPROLE_READ, "GET", "/v1/auth/{mount}/role/{name}", ResultKind.OBJECT),
                    read("vault.kubernetes.role-list", "auth", "The Kubernetes auth role names",
                            K8S_LIST, "GET", "/v1/auth/{mount}/role", ResultKind.SET),
                    read("vault.kubernetes.role-read", "auth", "A Kubernetes auth role: bound service accounts and "
                            + "namespaces, policies, ttls", K8S_READ, "GET",
                            "/v1/auth/{mount}/role/{name}", ResultKind.OBJECT),
                    read("vault.pki.issuer-list", "pki", "A PKI mount's issuers: issuer_id, issuer_name, key_id, "
                            + "is_default", PKI_LIST, "GET", "/v1/{mount}/issuers", ResultKind.SET),
                    read("vault.pki.cert-list", "pki", "The serial numbers of the certificates a PKI mount issued",
                            PKI_LIST, "GET", "/v1/{mount}/certs", ResultKind.SET),
                    read("vault.pki.cert-read", "pki", "An issued certificate (public PEM), its issuer and revocation "
                            + "time", PKI_CERT, "GET", "/v1/{mount}/cert/{serial}", ResultKind.OBJECT),
                    write("vault.pki.issue", "pki", "Issues a certificate with a PKI role: answers the certificate, "
                            + "issuing CA, serial number and expiration; the private key is stored in the tenant's "
                            + "credential store and only its secret_ref (private_key_ref) is returned", PKI_ISSUE,
                            SafetyLevel.DANGEROUS, "POST", "/v1/{mount}/issue/{role}")));

    private static OperationDescriptor read(String id, String group, String description, String schema, String method,
                                            String path, ResultKind kind) {
        return new OperationDescriptor(id, group, description, SafetyLevel.SAFE, false, OpClass.READ, schema,
                new OperationShape.Http(method, path), kind);
    }

    private static OperationDescriptor write(String id, String group, String description, String schema,
                                             SafetyLevel safety, String method, String path) {
        return new OperationDescriptor(id, group, description, safety, true, OpClass.WRITE, schema,
                new OperationShape.Http(method, path), ResultKind.OBJECT);
    }
}
