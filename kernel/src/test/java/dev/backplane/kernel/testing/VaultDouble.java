package dev.backplane.kernel.testing;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsServer;
import dev.backplane.kernel.testing.VaultKvEngine.Reply;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A HashiCorp Vault double speaking Vault's real HTTP API on a loopback socket (no Vault binary can be
 * installed here). Every answer follows Vault's API documentation and the response schemas of Vault's
 * OpenAPI document (the secret-store plugin's contract test checks that): KV v2 at {@code mount} and KV
 * v1 at {@value #KV1_MOUNT} ({@link VaultKvEngine}); {@code sys/health}, {@code sys/seal-status},
 * mounts, auth methods, audit devices, ACL policies, leases; token lookup-self and roles; AppRole
 * (login too) and Kubernetes auth roles and login ({@code POST auth/<mount>/login {"role","jwt"}}: the jwt must be a
 * service-account token the test accepted with {@link #acceptServiceAccountToken}); a PKI mount's issuers and
 * certificates. {@link #overTls} serves the same API over HTTPS with a certificate of its own private CA. Paths under
 * {@code denied/} (or ending {@code /denied}) of the KV v2 mount answer 403 like a policy would;
 * {@link #LIMITED_TOKEN} holds only the default policy (it may look itself up, nothing else).
 */
public final class VaultDouble implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    public static final String ROOT_TOKEN = "root-" + UUID.randomUUID();
    public static final String LIMITED_TOKEN = "limited-" + UUID.randomUUID();
    public static final String ROLE_ID = "role-" + UUID.randomUUID();
    public static final String SECRET_ID = "secret-" + UUID.randomUUID();
    public static final String KV1_MOUNT = "kv1";
    public static final String LEASE_ID = "database/creds/readonly/2f6a614c-4aa2-7b19-24b9-ad944a8d4de6";
    public static final String CERT_SERIAL = "17:67:16:b0:b9:45:58:c0:3a:29:e3:cb:d6:98:33:7a:a6:3b:66:c1";
    public static final String ISSUER_ID = "0d6c0fdc-d4a9-4dc2-b6bd-dcf9f0ad7e7e";

    /** One request and its answer, as seen on the wire. */
    public record Exchange(String method, String pathAndQuery, String requestBody, int status, String responseBody) {
    }

    private final HttpServer server;
    private final String scheme;
    private final String pem;
    private final Set<String> serviceAccountTokens = ConcurrentHashMap.newKeySet();
    private final List<String> kubernetesLogins = new CopyOnWriteArrayList<>();
    private volatile int kubernetesLeaseSeconds = 3600;
    private final String mount;
    private final Map<String, Boolean> tokens = new ConcurrentHashMap<>();
    private final List<String> requests = new CopyOnWriteArrayList<>();
    private final List<Exchange> exchanges = new CopyOnWriteArrayList<>();
    private final VaultSystem system;
    private volatile int logins;

    public VaultDouble(String mount) throws IOException {
        this(mount, null, null);
    }

    private VaultDouble(String mount, HttpsServer tls, String pem) {
        this.mount = mount;
        this.system = new VaultSystem(mount, KV1_MOUNT);
        tokens.put(ROOT_TOKEN, true);
        tokens.put(LIMITED_TOKEN, false);
        if (tls == null) {
            server = LoopbackHttp.start(this::handle);
            scheme = "http";
        } else {
            tls.createContext("/", this::handle);
            tls.start();
            server = tls;
            scheme = "https";
        }
        this.pem = pem;
    }

    /**
     * The double over HTTPS on loopback, with a fresh self-signed certificate (its own CA: see {@link #caPem}) for
     * 127.0.0.1, its key store written under {@code dir}. No JDK trust store knows that CA.
     */
    public static VaultDouble overTls(String mount, java.nio.file.Path dir) throws Exception {
        TlsFixture.SelfSigned tls = TlsFixture.SelfSigned.create(dir.resolve("vault-" + UUID.randomUUID() + ".p12"),
                "vault.test", "dns:vault.test,ip:127.0.0.1");
        return new VaultDouble(mount, tls.server(), tls.pem());
    }

    /** The CA certificate (PEM) of an {@link #overTls} double. */
    public String caPem() {
        return java.util.Objects.requireNonNull(pem, "not a TLS double");
    }

    public String address() {
        return scheme + "://127.0.0.1:" + server.getAddress().getPort();
    }

    /** From now on, a Kubernetes login with this service-account token (and a known role) succeeds. */
    public void acceptServiceAccountToken(String jwt) {
        serviceAccountTokens.add(jwt);
    }

    /** A Kubernetes login with this token is refused from now on (403 permission denied, like a failed TokenReview). */
    public void refuseServiceAccountToken(String jwt) {
        serviceAccountTokens.remove(jwt);
    }

    /** The lease_duration of the tokens Kubernetes logins issue from now on. */
    public void kubernetesLeaseSeconds(int seconds) {
        kubernetesLeaseSeconds = seconds;
    }

    /** The service-account token of each successful Kubernetes login, in order. */
    public List<String> kubernetesLogins() {
        return kubernetesLogins;
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /** Each request as "METHOD path namespace=<header>". */
    public List<String> requests() {
        return requests;
    }

    /** Every request with its answer, in order. */
    public List<Exchange> exchanges() {
        return exchanges;
    }

    public int logins() {
        return logins;
    }

    public void revokeAll() {
        tokens.keySet().removeIf(t -> !t.equals(ROOT_TOKEN) && !t.equals(LIMITED_TOKEN));
    }

    /** Writes a new KV v2 version at {@code path} of the main mount. */
    public void put(String path, Map<String, String> fields) {
        system.kv(mount).orElseThrow().put(path, JSON.valueToTree(fields));
    }

    /** Writes {@code path} of the KV v1 mount. */
    public void putV1(String path, Map<String, String> fields) {
        system.kv(KV1_MOUNT).orElseThrow().put(path, JSON.valueToTree(fields));
    }

    /** The current data at {@code path} of a KV mount, if any (for tests to check what a write did). */
    public Optional<JsonNode> current(String kvMount, String path) {
        return system.kv(kvMount).map(kv -> kv.current(path));
    }

    /** The version {@code sys/health} and {@code sys/seal-status} report (OpenBao reports 2.x). */
    public void version(String version) {
        system.version = version;
    }

    public void sealed(boolean sealed) {
        system.sealed = sealed;
    }

    /** The double's system state (mounts, policies, leases), for assertions. */
    /**
     * The private key the PKI mount's {@code issue/<role>} answers from now on (a canary, in tests that
     * look for it); by default a fixed EC key-shaped PEM.
     */
    public void issuedPrivateKey(String pem) {
        system.issuedKey = pem;
    }

    /** The serial numbers of the certificates issued with {@code issue/<role>}. */
    public List<String> issuedSerials() {
        return List.copyOf(system.issued);
    }

    public boolean hasMount(String path) {
        return system.mounts.containsKey(path.endsWith("/") ? path : path + "/");
    }

    public boolean hasPolicy(String name) {
        return system.policies.containsKey(name);
    }

    public boolean hasLease(String id) {
        return system.leases.containsKey(id);
    }

    /** A Vault response envelope around {@code data}. */
    static Map<String, Object> envelope(Object data) {
        return envelope(data, 0);
    }

    static Map<String, Object> envelope(Object data, int leaseDuration) {
        Map<String, Object> e = object("""
                {"request_id": "%s", "lease_id": "", "renewable": false, "lease_duration": %d, "data": null,
                 "wrap_info": null, "warnings": null, "auth": null}""".formatted(UUID.randomUUID(), leaseDuration));
        e.put("data", data);
        return e;
    }

    /** A JSON object written the way Vault's API documentation shows it, keys in that order. */
    static Map<String, Object> object(String json) {
        try {
            return JSON.readValue(json, new TypeReference<LinkedHashMap<String, Object>>() { });
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(e);
        }
    }

    private void handle(HttpExchange x) throws IOException {
        String path = x.getRequestURI().getPath();
        String method = x.getRequestMethod();
        requests.add(method + " " + path + " namespace=" + x.getRequestHeaders().getFirst("X-Vault-Namespace"));
        byte[] raw = x.getRequestBody().readAllBytes();
        Reply reply;
        try {
            reply = route(x, path, method, raw);
        } catch (IOException | RuntimeException e) {
            reply = Reply.error(400, "failed to parse JSON input: " + e.getClass().getSimpleName());
        }
        String answer = reply.body() == null ? "" : JSON.writeValueAsString(reply.body());
        exchanges.add(new Exchange(method, x.getRequestURI().getRawPath()
                + (x.getRequestURI().getRawQuery() == null ? "" : "?" + x.getRequestURI().getRawQuery()),
                new String(raw, StandardCharsets.UTF_8), reply.status(), answer));
        send(x, reply.status(), answer);
    }

    private Reply route(HttpExchange x, String path, String method, byte[] raw) throws IOException {
        Map<String, String> query = LoopbackHttp.form(x.getRequestURI().getRawQuery());
        boolean list = method.equals("LIST") || (method.equals("GET") && "true".equals(query.get("list")));
        if (!path.startsWith("/v1/")) {
            return Reply.error(404);
        }
        String rest = path.substring(4);
        if (rest.equals("sys/health") && method.equals("GET")) {
            return new Reply(system.sealed ? 503 : 200, system.health());
        }
        if (rest.equals("sys/seal-status") && method.equals("GET")) {
            return new Reply(200, system.sealStatus());
        }
        if (method.equals("POST") && rest.equals("auth/approle/login")) {
            JsonNode req = JSON.readTree(raw);
            if (!ROLE_ID.equals(req.path("role_id").asText()) || !SECRET_ID.equals(req.path("secret_id").asText())) {
                return Reply.error(400, "invalid role or secret ID");
            }
            logins++;
            String token = "approle-" + UUID.randomUUID();
            tokens.put(token, true);
            return new Reply(200, Map.of("auth", Map.of("client_token", token, "lease_duration", 3600)));
        }
        if (method.equals("POST") && rest.startsWith("auth/") && rest.endsWith("/login")) {
            String authMount = rest.substring("auth/".length(), rest.length() - "/login".length());
            if (system.authType(authMount).filter("kubernetes"::equals).isPresent()) {
                return kubernetesLogin(authMount, JSON.readTree(raw));
            }
        }
        String token = x.getRequestHeaders().getFirst("X-Vault-Token");
        Boolean privileged = token == null ? null : tokens.get(token);
        if (privileged == null) {
            return Reply.error(403, "permission denied");
        }
        if (rest.equals("auth/token/lookup-self") && method.equals("GET")) {
            return Reply.of(system.lookupSelf(token, privileged));
        }
        if (!privileged) {
            return Reply.error(403, "1 error occurred:\n\t* permission denied\n\n");
        }
        JsonNode body = raw.length == 0 ? JSON.createObjectNode() : JSON.readTree(raw);
        if (method.equals("GET") && body instanceof ObjectNode o) {
            query.forEach(o::put); // KV reads take version (and subkeys depth) from the query
        }
        Optional<Reply> sys = system.handle(method, rest, list, body);
        if (sys.isPresent()) {
            return sys.get();
        }
        if ((rest.startsWith(mount + "/data/denied/") || rest.startsWith(mount + "/data/") && rest.endsWith("/denied"))) {
            return Reply.error(403, "1 error occurred:\n\t* permission denied\n\n");
        }
        for (String m : system.kvMounts()) {
            if (rest.startsWith(m + "/") || (list && rest.equals(m))) {
                String inner = rest.length() > m.length() ? rest.substring(m.length() + 1) : "";
                return system.kv(m).orElseThrow().handle(method, inner, list, body);
            }
        }
        return Reply.error(404, "no handler for route \"" + rest + "\". route entry not found.");
    }

    /** Vault's Kubernetes login: the role must exist, the jwt must be a token the test accepted (the TokenReview). */
    private Reply kubernetesLogin(String authMount, JsonNode req) {
        String role = req.path("role").asText("");
        String jwt = req.path("jwt").asText("");
        if (role.isEmpty()) {
            return Reply.error(400, "missing role");
        }
        if (jwt.isEmpty()) {
            return Reply.error(400, "missing jwt");
        }
        Optional<Map<String, Object>> bound = system.role(authMount, role);
        if (bound.isEmpty()) {
            return Reply.error(400, "invalid role name \"" + role + "\"");
        }
        if (!serviceAccountTokens.contains(jwt)) {
            return Reply.error(403, "permission denied");
        }
        logins++;
        kubernetesLogins.add(jwt);
        String token = "hvs.k8s-" + UUID.randomUUID();
        tokens.put(token, true);
        Map<String, Object> auth = new LinkedHashMap<>();
        auth.put("client_token", token);
        auth.put("accessor", "acc-" + UUID.randomUUID());
        auth.put("policies", List.of("default", "deploy"));
        auth.put("token_policies", List.of("default", "deploy"));
        auth.put("metadata", Map.of("role", role, "service_account_name", "web", "service_account_namespace", "shop",
                "service_account_secret_name", "", "service_account_uid", "8c9bb3c1-0000-4000-8000-000000000001"));
        auth.put("lease_duration", kubernetesLeaseSeconds);
        auth.put("renewable", true);
        auth.put("entity_id", UUID.randomUUID().toString());
        auth.put("token_type", "service");
        auth.put("orphan", true);
        Map<String, Object> e = envelope(null);
        e.put("auth", auth);
        return new Reply(200, e);
    }

    private static void send(HttpExchange x, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        if (status == 204) {
            x.sendResponseHeaders(204, -1);
            x.close();
            return;
        }
        x.getResponseHeaders().add("Content-Type", "application/json");
        x.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = x.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
