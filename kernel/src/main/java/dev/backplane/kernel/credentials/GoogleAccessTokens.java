package dev.backplane.kernel.credentials;

import com.google.auth.oauth2.AccessToken;
import com.google.auth.oauth2.GoogleCredentials;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Access tokens for Google Secret Manager from google-auth-library: a service-account or workload-identity JSON
 * file when one is configured, otherwise Application Default Credentials (GOOGLE_APPLICATION_CREDENTIALS, gcloud's
 * login, the metadata server on Google Cloud). The library caches the token and refreshes it before it expires, so
 * the store never sends an expired one. A token is never logged; a failure names only its kind.
 */
final class GoogleAccessTokens implements Supplier<String> {

    static final List<String> SCOPES = List.of("https://www.googleapis.com/auth/cloud-platform");

    private final GoogleCredentials credentials;

    private GoogleAccessTokens(GoogleCredentials credentials) {
        this.credentials = credentials.createScopedRequired() ? credentials.createScoped(SCOPES) : credentials;
    }

    /** Fails the start with a clear message when no credentials can be found or read. */
    static GoogleAccessTokens load(Optional<Path> file) {
        try {
            if (file.isPresent()) {
                try (InputStream in = Files.newInputStream(file.get())) {
                    return new GoogleAccessTokens(GoogleCredentials.fromStream(in));
                }
            }
            return new GoogleAccessTokens(GoogleCredentials.getApplicationDefault());
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("the cloudsm credentials backend found no usable Google credentials ("
                    + file.map(f -> "credentials.cloudsm.credentials-file " + f + ": ").orElse("Application Default "
                    + "Credentials: ") + e.getClass().getSimpleName() + "); set credentials.cloudsm.credentials-file, "
                    + "GOOGLE_APPLICATION_CREDENTIALS, or credentials.cloudsm.token");
        }
    }

    @Override
    public String get() {
        try {
            credentials.refreshIfExpired();
            AccessToken token = credentials.getAccessToken();
            if (token == null) {
                throw StoreFailures.unavailable("Google credentials", "no access token was issued");
            }
            return token.getTokenValue();
        } catch (IOException e) {
            throw StoreFailures.unavailable("Google credentials", "could not obtain an access token ("
                    + e.getClass().getSimpleName() + ")");
        }
    }

    @Override
    public String toString() {
        return "GoogleAccessTokens[" + credentials.getClass().getSimpleName() + "]";
    }
}
