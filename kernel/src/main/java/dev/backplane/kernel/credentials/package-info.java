/**
 * Credentials: {@link dev.backplane.kernel.credentials.CredentialService} resolves a secret_ref into a
 * credential at the moment of use, never cached, and stages secrets write-only, on the backend configuration
 * picks ({@link dev.backplane.kernel.credentials.CredentialStore}: Vault KV v2, the embedded file store, or
 * Google Secret Manager). {@link dev.backplane.kernel.credentials.SecretRefs} holds the secret_ref grammar and
 * its tenant scope rules, so one tenant can never name another tenant's secret. The package owns no tables:
 * the backplane keeps only references, and a store never logs or caches a value beyond the call. Its callers
 * are dispatch (a call's credential), targets (staging), events (source secrets), docs (backend tokens) and
 * agents (the model provider's API key).
 */
package dev.backplane.kernel.credentials;
