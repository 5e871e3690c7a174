package dev.backplane.kernel.credentials;

import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.errors.ErrorKind;
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

    /**
     * Which backend secret_refs point at and how to reach it: Vault KV v2 when {@code vault} is
     * given, else the embedded file store in {@code fileKvDir}; or Google Secret Manager.
     */
    public record Settings(SecretRefs.Backend backend, Duration timeout, Optional<VaultKvStore.Settings> vault,
                           Path fileKvDir, URI cloudsmEndpoint, Optional<String> cloudsmToken,
                           Optional<Path> cloudsmCredentialsFile, javax.net.ssl.SSLContext sslContext) {
        @Override
        public String toString() {
            return "CredentialService.Settings[" + backend + vault.map(v -> ", " + v).orElse("") + "]";
        }
    }

    public static CredentialService start(Settings settings) {
        CredentialStore store = switch (settings.backend()) {
            case KV -> settings.vault().<CredentialStore>map(VaultKvStore::new)
                    .orElseGet(() -> new FileKvStore(settings.fileKvDir()));
            case CLOUDSM -> {
                java.util.function.Supplier<String> tokens = settings.cloudsmToken()
                        .<java.util.function.Supplier<String>>map(token -> () -> token)
                        .orElseGet(() -> GoogleAccessTokens.load(settings.cloudsmCredentialsFile()));
                yield new CloudSmStore(settings.cloudsmEndpoint(), tokens, settings.timeout(), settings.sslContext());
            }
        };
        return new CredentialService(settings.backend(), store);
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

    /**
     * Stores a secret a connector obtained during a call of {@code tenant} (plugin-api 1.5
     * {@code ConnectorContext.stageSecret}) at a fresh ref this service chooses inside the tenant's scope
     * ({@link SecretRefs#issued}), and answers the ref. Store failures become {@link ConnectorException}s
     * free of values.
     *
     * @param siblingRef the called target's own secret_ref (cloudsm: the project to write in)
     */
    public String stageIssued(java.util.UUID tenant, String siblingRef, String purpose, Map<String, String> fields) {
        if (purpose == null || !purpose.matches("[A-Za-z0-9_.-]{1,64}")) {
            throw new ConnectorException(ErrorCode.CONNECTOR_ERROR, "a staged secret's purpose must be 1-64 letters, "
                    + "digits, '_', '.', '-'", Map.of(), null);
        }
        try {
            return stage(tenant, SecretRefs.issued(backend, tenant, siblingRef), new java.util.LinkedHashMap<>(fields))
                    .secretRef();
        } catch (DomainException e) {
            throw new ConnectorException(ErrorCode.CONNECTOR_ERROR, "staging the " + purpose + " secret failed: "
                    + e.getMessage(), Map.of(), null);
        }
    }

    /** Writes a target's secret (tenant_admin; the caller checked the role). Values are never echoed. */
    public Staged stage(java.util.UUID tenant, String secretRef, Map<String, String> fields) {
        Optional<String> foreign = SecretRefs.scopeError(backend, Optional.of(tenant), secretRef);
        if (foreign.isPresent()) {
            throw CredentialErrors.SECRET_REF_OUTSIDE_TENANT_SCOPE.error(foreign.get() + "; nothing was written",
                    Map.of("field", "secret_ref"));
        }
        if (fields.isEmpty()) {
            throw CredentialErrors.INVALID_SECRET.error("the secret has no fields", Map.of("field", "fields"));
        }
        for (Map.Entry<String, String> f : fields.entrySet()) {
            if (!f.getKey().matches("[A-Za-z0-9_.-]{1,128}") || f.getValue() == null) {
                throw CredentialErrors.INVALID_SECRET.error("field names are 1-128 letters, digits, '_', '.', '-' "
                        + "with string values", Map.of("field", "fields"));
            }
        }
        if (backend == SecretRefs.Backend.KV && SecretRefs.kvReadError(secretRef).isPresent()) {
            throw CommonErrors.INVALID_SECRET_REF.error(SecretRefs.kvReadError(secretRef).get(),
                    Map.of("field", "secret_ref"));
        }
        try {
            store.write(secretRef, fields);
        } catch (ConnectorException e) {
            throw new DomainException(ErrorKind.UPSTREAM_FAILED, e.code().wireName(), e.getMessage(), e.extras());
        }
        return new Staged(secretRef, List.copyOf(new TreeSet<>(fields.keySet())), store.describe());
    }
}
