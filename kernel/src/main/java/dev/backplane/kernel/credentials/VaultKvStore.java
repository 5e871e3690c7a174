package dev.backplane.kernel.credentials;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantLock;
import javax.net.ssl.SSLContext;

/**
 * Credentials in HashiCorp Vault's KV v2 engine, over its HTTP API: {@code GET /v1/<mount>/data/<ref>}
 * to read, {@code POST} to stage. Authenticates with a token, with AppRole, or with the Kubernetes auth method (the
 * pod's projected service-account token, re-read at each login because it rotates); a login's token is cached until
 * shortly before its lease ends and renewed by logging in again. Sends the namespace header when one is configured.
 * Timeouts are short: a slow secret store must not hold a dispatch.
 */
public final class VaultKvStore implements CredentialStore {

    /** How the kernel logs in to Vault ({@code credentials.vault.auth-method}). */
    public enum AuthMethod {
        TOKEN, APPROLE, KUBERNETES;

        /**
         * The method {@code word} names; empty picks token when a token is set, else AppRole (the behaviour before
         * the setting existed).
         */
        public static AuthMethod parse(String word, boolean tokenSet) {
            return switch (word == null ? "" : word.trim().toLowerCase(java.util.Locale.ROOT)) {
                case "" -> tokenSet ? TOKEN : APPROLE;
                case "token" -> TOKEN;
                case "approle" -> APPROLE;
                case "kubernetes" -> KUBERNETES;
                default -> throw new IllegalArgumentException("credentials.vault.auth-method must be token, approle or "
                        + "kubernetes, got '" + word + "'");
            };
        }
    }

    /**
     * Vault's Kubernetes auth method.
     *
     * @param role the Vault role bound to the kernel's service account
     * @param mount where the method is mounted (default {@code kubernetes})
     * @param tokenFile the service-account token (a projected token rotates: read at each login)
     */
    public record Kubernetes(String role, String mount, Path tokenFile) {
    }

    /**
     * How to reach Vault.
     *
     * @param address e.g. https://vault.example:8200
     * @param mount the KV v2 mount (default {@code secret})
     * @param namespace Vault Enterprise namespace, if any
     * @param token a token, when token auth is used
     * @param roleId AppRole role id, when AppRole is used
     * @param secretId AppRole secret id
     * @param kubernetes the Kubernetes auth method, when it is used
     * @param timeout per-request timeout
     * @param sslContext what an https Vault's certificate is checked against (the JDK's roots and any private CA)
     */
    public record Settings(URI address, String mount, Optional<String> namespace, Optional<String> token,
                           Optional<String> roleId, Optional<String> secretId, Optional<Kubernetes> kubernetes,
                           Duration timeout, SSLContext sslContext) {

        /** Token or AppRole auth, trusting the JDK's roots. */
        public Settings(URI address, String mount, Optional<String> namespace, Optional<String> token,
                        Optional<String> roleId, Optional<String> secretId, Duration timeout) {
            this(address, mount, namespace, token, roleId, secretId, Optional.empty(), timeout, jdkDefault());
        }

        public AuthMethod method() {
            return token.isPresent() ? AuthMethod.TOKEN : kubernetes.isPresent() ? AuthMethod.KUBERNETES
                    : AuthMethod.APPROLE;
        }

        @Override
        public String toString() {
            return "Vault[" + address + ", mount " + mount + namespace.map(n -> ", namespace " + n).orElse("")
                    + switch (method()) {
                        case TOKEN -> ", token auth";
                        case APPROLE -> ", approle auth";
                        case KUBERNETES -> ", kubernetes auth (role " + kubernetes.get().role() + " at auth/"
                                + kubernetes.get().mount() + ")";
                    } + "]";
        }
    }

    static SSLContext jdkDefault() {
        try {
            return SSLContext.getDefault();
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private final Settings settings;
    private final HttpClient http;
    private final ReentrantLock loginLock = new ReentrantLock();
    private volatile String loginToken;
    private volatile Instant loginExpiry = Instant.EPOCH;
    private final java.time.Clock clock;

    public VaultKvStore(Settings settings) {
        this(settings, java.time.Clock.systemUTC());
    }

    /** As above, timing a login token's lease by {@code clock} (tests move it past the lease). */
    VaultKvStore(Settings settings, java.time.Clock clock) {
        this.clock = clock;
        switch (settings.method()) {
            case APPROLE -> {
                if (settings.roleId().isEmpty() || settings.secretId().isEmpty()) {
                    throw new IllegalArgumentException("Vault needs a token (SVC_VAULT_TOKEN), an AppRole role id and "
                            + "secret id (SVC_VAULT_ROLE_ID, SVC_VAULT_SECRET_ID), or auth-method kubernetes with a role "
                            + "(SVC_VAULT_AUTH_METHOD, SVC_VAULT_KUBERNETES_ROLE)");
                }
            }
            case KUBERNETES -> {
                if (settings.kubernetes().get().role().isBlank()) {
                    throw new IllegalArgumentException("Vault's kubernetes auth needs a role (SVC_VAULT_KUBERNETES_ROLE)");
                }
            }
            case TOKEN -> { }
        }
        this.settings = settings;
        this.http = HttpClient.newBuilder().connectTimeout(settings.timeout()).sslContext(settings.sslContext()).build();
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
            r = exchange(dataUri(ref), method, body, token(true)); // the login's token may have been revoked
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
        if (!forceLogin && loginToken != null && clock.instant().isBefore(loginExpiry)) {
            return loginToken;
        }
        loginLock.lock();
        try {
            if (!forceLogin && loginToken != null && clock.instant().isBefore(loginExpiry)) {
                return loginToken;
            }
            String base = settings.address().toString().replaceAll("/+$", "");
            String what;
            String sent; // the secret this login sends: kept out of the error, whatever Vault echoes
            HttpResponse<byte[]> r;
            if (settings.method() == AuthMethod.KUBERNETES) {
                Kubernetes k = settings.kubernetes().get();
                what = "Kubernetes login (role " + k.role() + " at auth/" + k.mount() + ")";
                sent = serviceAccountToken(k);
                r = exchange(URI.create(base + "/v1/auth/" + k.mount() + "/login"), "POST",
                        Map.of("role", k.role(), "jwt", sent), null);
            } else {
                what = "AppRole login";
                sent = settings.secretId().get();
                r = exchange(URI.create(base + "/v1/auth/approle/login"), "POST", Map.of("role_id",
                        settings.roleId().get(), "secret_id", settings.secretId().get()), null);
            }
            if (r.statusCode() != 200) {
                throw StoreFailures.unavailable(settings.toString(), what + " failed with HTTP " + r.statusCode()
                        + vaultErrors(r.body(), sent));
            }
            JsonNode auth = tree(r.body()).path("auth");
            String token = auth.path("client_token").asText("");
            if (token.isEmpty()) {
                throw StoreFailures.unavailable(settings.toString(), what + " answered without auth.client_token");
            }
            long lease = Math.max(30, auth.path("lease_duration").asLong(300));
            loginToken = token;
            loginExpiry = clock.instant().plusSeconds(lease - Math.min(60, lease / 5));
            return loginToken;
        } finally {
            loginLock.unlock();
        }
    }

    /** The pod's service-account token, read now: a projected token is rotated by the kubelet. */
    private String serviceAccountToken(Kubernetes k) {
        try {
            String jwt = Files.readString(k.tokenFile()).strip();
            if (jwt.isEmpty()) {
                throw StoreFailures.unavailable(settings.toString(), "the service-account token file "
                        + k.tokenFile() + " is empty");
            }
            return jwt;
        } catch (IOException e) {
            throw StoreFailures.unavailable(settings.toString(), "cannot read the service-account token file "
                    + k.tokenFile() + " (" + e.getClass().getSimpleName() + ")");
        }
    }

    /** Vault's {@code errors} array (what a refused login says, e.g. "permission denied"), never the request. */
    private static String vaultErrors(byte[] body, String sent) {
        JsonNode errors = tree(body).path("errors");
        if (!errors.isArray() || errors.isEmpty()) {
            return "";
        }
        List<String> texts = new ArrayList<>();
        errors.forEach(e -> texts.add(e.asText()));
        String joined = String.join("; ", texts).replace(sent, "****").replaceAll("\\s+", " ").strip();
        return ": " + (joined.length() > 200 ? joined.substring(0, 200) + "..." : joined);
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
