package dev.backplane.plugins.vault;

import dev.backplane.kernel.testing.VaultDouble;
import dev.backplane.plugin.api.OperationRequest;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One call of every vault-1.x operation, in an order that succeeds against a fresh {@link VaultDouble}
 * ({@code secret} KV v2, {@code kv1} KV v1): the contract test sends them all and checks each answer
 * against Vault's OpenAPI document.
 */
final class EveryOperation {

    private EveryOperation() {
    }

    static List<OperationRequest> calls(String value) {
        return List.of(
                call("vault.kv.write", Map.of("path", "apps/web", "data", Map.of("password", value, "user", "web"))),
                call("vault.kv.write", Map.of("path", "apps/web", "data", Map.of("password", value + "2"), "cas", 1)),
                call("vault.kv.patch", Map.of("path", "apps/web", "data", Map.of("port", "5432"))),
                call("vault.kv.list", Map.of()),
                call("vault.kv.list", Map.of("path", "apps")),
                call("vault.kv.read", Map.of("path", "apps/web")),
                call("vault.kv.read", Map.of("path", "apps/web", "version", 1)),
                call("vault.kv.metadata", Map.of("path", "apps/web")),
                call("vault.kv.versions", Map.of("path", "apps/web")),
                call("vault.kv.delete", Map.of("path", "apps/web", "versions", List.of(2))),
                call("vault.kv.undelete", Map.of("path", "apps/web", "versions", List.of(2))),
                call("vault.kv.rollback", Map.of("path", "apps/web", "version", 1)),
                call("vault.kv.delete", Map.of("path", "apps/web")),
                call("vault.kv.destroy", Map.of("path", "apps/web", "versions", List.of(1))),
                call("vault.kv.write", Map.of("path", "legacy/db", "kv_version", 1, "mount", VaultDouble.KV1_MOUNT,
                        "data", Map.of("password", value))),
                call("vault.kv.list", Map.of("kv_version", 1, "mount", VaultDouble.KV1_MOUNT)),
                call("vault.kv.read", Map.of("path", "legacy/db", "kv_version", 1, "mount", VaultDouble.KV1_MOUNT)),
                call("vault.kv.destroy", Map.of("path", "legacy/db", "kv_version", 1, "mount", VaultDouble.KV1_MOUNT)),
                call("vault.sys.health", Map.of()),
                call("vault.sys.seal-status", Map.of()),
                call("vault.mount.enable", Map.of("path", "team/kv", "type", "kv", "kv_version", 2,
                        "description", "team secrets")),
                call("vault.mount.list", Map.of()),
                call("vault.mount.disable", Map.of("path", "team/kv")),
                call("vault.sys.auth-list", Map.of()),
                call("vault.sys.audit-list", Map.of()),
                call("vault.policy.write", Map.of("name", "ci", "policy", "path \"secret/data/ci/*\" { capabilities = [\"read\"] }")),
                call("vault.policy.list", Map.of()),
                call("vault.policy.read", Map.of("name", "ci")),
                call("vault.policy.delete", Map.of("name", "ci")),
                call("vault.lease.list", Map.of("prefix", "database/creds/readonly")),
                call("vault.lease.lookup", Map.of("lease_id", VaultDouble.LEASE_ID)),
                call("vault.lease.revoke", Map.of("lease_id", VaultDouble.LEASE_ID)),
                call("vault.token.lookup-self", Map.of()),
                call("vault.token.role-list", Map.of()),
                call("vault.token.role-read", Map.of("name", "nomad")),
                call("vault.approle.role-list", Map.of()),
                call("vault.approle.role-read", Map.of("name", "ci")),
                call("vault.kubernetes.role-list", Map.of()),
                call("vault.kubernetes.role-read", Map.of("name", "web")),
                call("vault.pki.issuer-list", Map.of()),
                call("vault.pki.cert-list", Map.of()),
                call("vault.pki.cert-read", Map.of("serial", VaultDouble.CERT_SERIAL)),
                call("vault.pki.issue", Map.of("role", "web", "common_name", "www.example.com",
                        "alt_names", List.of("api.example.com", "*.web.example.com"), "ttl", "72h")));
    }

    static OperationRequest call(String op, Map<String, Object> params) {
        return new OperationRequest(op, params, Optional.empty());
    }
}
