package dev.backplane.kernel.credentials;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Credentials in HashiCorp Vault's KV v2 engine, over its HTTP API: {@code GET /v1/<mount>/data/<ref>}
 * to read, {@code POST} to stage. Authenticates with a token, or with AppRole (the token is cached
 * until shortly before its lease ends and renewed by logging in again). Sends the namespace header
 * when one is configured. Timeouts are short: a slow secret store must not hold a dispatch.
 */
public final class VaultKvStore implements CredentialStore {

    /**
     * How to reach Vault.
     *
     * @param address e.g. https://vault.example:8200
     * @param mount the KV v2 mount (default {@code secret})
     * @param namespace Vault Enterprise namespace, if any
     * @param token a token, when token auth is used
     * @param roleId AppRole role id, when AppRole is used
     * @param secretId AppRole secret id
     * @param timeout per-request timeout
     */
    public record Settings(URI address, String mount, Optional<String> namespace, Optional<String> token,
                           Optional<String> roleId, Optional<String> secretId, Duration timeout) {
        @Override
        public String toString() {
            return "Vault[" + address + ", mount " + mount + namespace.map(n -> ", namespace " + n).orElse("")
                    + (token.isPresent() ? ", token auth" : ", approle auth") + "]";
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private final Settings settings;
    private final HttpClient http;
    private final ReentrantLock loginLock = new ReentrantLock();
    private volatile String approleToken;
    private volatile Instant approleExpiry = Instant.EPOCH;

    public VaultKvStore(Settings settings) {
        if (settings.token().isEmpty() && (settings.roleId().isEmpty() || settings.secretId().isEmpty())) {
            throw new IllegalArgumentException("Vault needs a token (SVC_VAULT_TOKEN) or an AppRole role id and secret id "
                    + "(SVC_VAULT_ROLE_ID, SVC_VAULT_SECRET_ID)");
        }
        this.settings = settings;
        this.http = HttpClient.newBuilder().connectTimeout(settings.timeout()).build();
    }

    @Override
    public Map<String, String> read(String ref) {
        String where = "'" + settings.mount() + "/data/" + ref + "' in Vault";
        HttpResponse<byte[]> r = send(ref, "GET", null, true);
        switch (r.statusCode()) {
            case 200 -> {
                JsonNode data = tree(r.body()).path("data").path("data");
                if (!data.isObject()) {
                    throw StoreFailures.malformed(ref, "Vault answered without data.data");
                }
                Map<String, String> fields = new TreeMap<>();
                data.properties().forEach(e -> fields.put(e.getKey(), e.getValue().isTextual() ? e.getValue().asText()
                        : e.getValue().toString()));
                return fields;
            }
            case 403 -> throw StoreFailures.forbidden(ref, where);
            case 404 -> throw StoreFailures.notFound(ref, where);
            default -> throw StoreFailures.unavailable(settings.toString(), "HTTP " + r.statusCode());
        }
    }

    @Override
    public void write(String ref, Map<String, String> fields) {
        HttpResponse<byte[]> r = send(ref, "POST", Map.of("data", new TreeMap<>(fields)), true);
        if (r.statusCode() == 403) {
            throw StoreFailures.forbidden(ref, "'" + settings.mount() + "/data/" + ref + "' in Vault (write)");
        }
        if (r.statusCode() / 100 != 2) {
            throw StoreFailures.unavailable(settings.toString(), "HTTP " + r.statusCode() + " on write");
        }
    }

    @Override
    public String describe() {
        return settings.toString();
    }

    private HttpResponse<byte[]> send(String ref, String method, Object body, boolean retryLogin) {
        String token = token(false);
        HttpResponse<byte[]> r = exchange(dataUri(ref), method, body, token);
        if (r.statusCode() == 403 && retryLogin && settings.token().isEmpty()) {
            r = exchange(dataUri(ref), method, body, token(true)); // the AppRole token may have been revoked
        }
        return r;
    }

    private URI dataUri(String ref) {
        return URI.create(settings.address().toString().replaceAll("/+$", "") + "/v1/" + settings.mount() + "/data/" + ref);
    }

    private String token(boolean forceLogin) {
        if (settings.token().isPresent()) {
            return settings.token().get();
        }
        if (!forceLogin && approleToken != null && Instant.now().isBefore(approleExpiry)) {
            return approleToken;
        }
        loginLock.lock();
        try {
            if (!forceLogin && approleToken != null && Instant.now().isBefore(approleExpiry)) {
                return approleToken;
            }
            URI login = URI.create(settings.address().toString().replaceAll("/+$", "") + "/v1/auth/approle/login");
            HttpResponse<byte[]> r = exchange(login, "POST", Map.of("role_id", settings.roleId().get(),
                    "secret_id", settings.secretId().get()), null);
            if (r.statusCode() != 200) {
                throw StoreFailures.unavailable(settings.toString(), "AppRole login failed with HTTP " + r.statusCode());
            }
            JsonNode auth = tree(r.body()).path("auth");
            approleToken = auth.path("client_token").asText();
            long lease = Math.max(30, auth.path("lease_duration").asLong(300));
            approleExpiry = Instant.now().plusSeconds(lease - Math.min(60, lease / 5));
            return approleToken;
        } finally {
            loginLock.unlock();
        }
    }

    private HttpResponse<byte[]> exchange(URI uri, String method, Object body, String token) {
        try {
            HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(settings.timeout())
                    .header("Accept", "application/json");
            if (token != null) {
                b.header("X-Vault-Token", token);
            }
            settings.namespace().ifPresent(ns -> b.header("X-Vault-Namespace", ns));
            if (body == null) {
                b.method(method, HttpRequest.BodyPublishers.noBody());
            } else {
                b.header("Content-Type", "application/json")
                        .method(method, HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(body)));
            }
            return http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
        } catch (HttpTimeoutException e) {
            throw StoreFailures.unavailable(settings.toString(), "no answer within " + settings.timeout().toMillis() + " ms");
        } catch (IOException e) {
            throw StoreFailures.unavailable(settings.toString(), e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : ": " + e.getMessage()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw StoreFailures.unavailable(settings.toString(), "interrupted");
        }
    }

    private static JsonNode tree(byte[] body) {
        try {
            return JSON.readTree(body);
        } catch (IOException e) {
            return JSON.nullNode();
        }
    }
}
