package dev.backplane.kernel.credentials;

import java.util.Map;

/**
 * A secret store the backplane reads credentials from by reference, at dispatch time, and writes
 * staged secrets to. Implementations never log, cache or return values beyond the call; failures
 * are {@link dev.backplane.plugin.api.ConnectorException}s with the SPEC's codes.
 */
public interface CredentialStore {

    /** The named fields stored at {@code ref}. */
    Map<String, String> read(String ref);

    /** Replaces the fields stored at {@code ref}. */
    void write(String ref, Map<String, String> fields);

    /** What this store is, for operators ("Vault KV v2 at https://..., mount secret"); never a secret. */
    String describe();
}
