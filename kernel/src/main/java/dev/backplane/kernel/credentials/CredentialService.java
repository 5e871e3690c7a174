package dev.backplane.kernel.credentials;

import dev.backplane.kernel.app.KernelConfig;
import dev.backplane.kernel.app.Setting;
import dev.backplane.kernel.http.ApiException;
import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.Credential;
import dev.backplane.plugin.api.ErrorCode;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Resolves a target's secret_ref into a {@link Credential} at the moment of use (never cached), and
 * stages secrets (write-only). The backend is chosen by configuration: {@code kv} — Vault KV v2 when
 * {@code SVC_VAULT_ADDR} is set, else the embedded file store — or {@code cloudsm}.
 */
public final class CredentialService {

    /** What staging wrote: the reference and the field names, never the values. */
    public record Staged(String secretRef, List<String> fields, String store) {
    }

    private final SecretRefs.Backend backend;
    private final CredentialStore store;

    public CredentialService(SecretRefs.Backend backend, CredentialStore store) {
        this.backend = backend;
        this.store = store;
    }

    public static CredentialService fromConfig(KernelConfig config) {
        SecretRefs.Backend backend = SecretRefs.Backend.parse(config.get(Setting.CREDENTIALS_BACKEND));
        Duration timeout = Duration.ofMillis(config.intValue(Setting.CREDENTIALS_TIMEOUT_MS, 100, 60000));
        CredentialStore store = switch (backend) {
            case KV -> config.optional(Setting.VAULT_ADDR)
                    .<CredentialStore>map(addr -> new VaultKvStore(new VaultKvStore.Settings(URI.create(addr),
                            config.get(Setting.VAULT_MOUNT), config.optional(Setting.VAULT_NAMESPACE),
                            config.optional(Setting.VAULT_TOKEN), config.optional(Setting.VAULT_ROLE_ID),
                            config.optional(Setting.VAULT_SECRET_ID), timeout)))
                    .orElseGet(() -> new FileKvStore(Path.of(config.get(Setting.DATA_DIR)).resolve("kv")));
            case CLOUDSM -> {
                String token = config.required(Setting.CLOUDSM_TOKEN);
                yield new CloudSmStore(URI.create(config.get(Setting.CLOUDSM_ENDPOINT)), () -> token, timeout);
            }
        };
        return new CredentialService(backend, store);
    }

    public SecretRefs.Backend backend() {
        return backend;
    }

    public String describeStore() {
        return store.describe();
    }

    /**
     * Reads the credential a secret_ref points to, for its owner.
     *
     * @param owner the tenant the ref is read for, or empty for the platform (a global doc collection)
     * @throws ConnectorException {@code connector_error} (KvCredentialsReadError ...; {@code secret_ref_outside_scope}
     *     when the ref names another owner's secret — nothing is read) or {@code connector_kv_forbidden}
     */
    public Credential resolve(Optional<java.util.UUID> owner, String secretRef) {
        if (backend == SecretRefs.Backend.KV) {
            Optional<String> bad = SecretRefs.kvReadError(secretRef);
            if (bad.isPresent()) {
                throw new ConnectorException(ErrorCode.CONNECTOR_ERROR, bad.get(), Map.of("secret_ref", secretRef), null);
            }
        }
        Optional<String> foreign = SecretRefs.scopeError(backend, owner, secretRef);
        if (foreign.isPresent()) {
            throw new ConnectorException(ErrorCode.CONNECTOR_ERROR, "secret_ref_outside_scope: " + foreign.get()
                    + "; nothing was read", Map.of("secret_ref", secretRef), null);
        }
        return new Credential(store.read(secretRef));
    }

    /** Writes a target's secret (tenant_admin; the caller checked the role). Values are never echoed. */
    public Staged stage(java.util.UUID tenant, String secretRef, Map<String, String> fields) {
        Optional<String> foreign = SecretRefs.scopeError(backend, Optional.of(tenant), secretRef);
        if (foreign.isPresent()) {
            throw ApiException.unprocessable("secret_ref_outside_tenant_scope", foreign.get() + "; nothing was written",
                    Map.of("field", "secret_ref"));
        }
        if (fields.isEmpty()) {
            throw ApiException.unprocessable("invalid_secret", "the secret has no fields", Map.of("field", "fields"));
        }
        for (Map.Entry<String, String> f : fields.entrySet()) {
            if (!f.getKey().matches("[A-Za-z0-9_.-]{1,128}") || f.getValue() == null) {
                throw ApiException.unprocessable("invalid_secret", "field names are 1-128 letters, digits, '_', '.', '-' "
                        + "with string values", Map.of("field", "fields"));
            }
        }
        if (backend == SecretRefs.Backend.KV && SecretRefs.kvReadError(secretRef).isPresent()) {
            throw ApiException.unprocessable("invalid_secret_ref", SecretRefs.kvReadError(secretRef).get(),
                    Map.of("field", "secret_ref"));
        }
        try {
            store.write(secretRef, fields);
        } catch (ConnectorException e) {
            throw new ApiException(io.helidon.http.Status.BAD_GATEWAY_502, e.code().wireName(), e.getMessage(), e.extras());
        }
        return new Staged(secretRef, List.copyOf(new TreeSet<>(fields.keySet())), store.describe());
    }
}
