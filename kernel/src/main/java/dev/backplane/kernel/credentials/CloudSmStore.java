package dev.backplane.kernel.credentials;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Credentials in Google Secret Manager over its REST API. A ref is
 * {@code cloudsm:<project-id>/<secret-name>[/versions/<version>][#<field>]}; the secret's payload is
 * a JSON object of named fields ({@code #field} narrows to one). Reads use
 * {@code versions/<v>:access}; staging adds a version (creating the secret on first use).
 */
public final class CloudSmStore implements CredentialStore {

    private static final Pattern REF = Pattern.compile(
            "cloudsm:([^/#]+)/([^/#]+)(?:/versions/([^/#]+))?(?:#(.+))?");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final URI endpoint;
    private final Supplier<String> accessToken;
    private final HttpClient http;
    private final Duration timeout;

    /**
     * @param endpoint the API root, normally https://secretmanager.googleapis.com
     * @param accessToken an OAuth access token for the backplane's identity (never logged)
     * @param timeout per-request timeout
     */
    public CloudSmStore(URI endpoint, Supplier<String> accessToken, Duration timeout) {
        this(endpoint, accessToken, timeout, VaultKvStore.jdkDefault());
    }

    /** As above, checking the endpoint's certificate against {@code sslContext} (the JDK's roots and any private CA). */
    public CloudSmStore(URI endpoint, Supplier<String> accessToken, Duration timeout, javax.net.ssl.SSLContext sslContext) {
        this.endpoint = endpoint;
        this.accessToken = accessToken;
        this.timeout = timeout;
        this.http = HttpClient.newBuilder().connectTimeout(timeout).sslContext(sslContext).build();
    }

    private record Ref(String project, String secret, String version, String field) {
    }

    private static Ref parse(String ref) {
        Matcher m = REF.matcher(ref);
        if (!m.matches()) {
            throw StoreFailures.malformed(ref, "not cloudsm:<project-id>/<secret-name>[/versions/<version>][#<field>]");
        }
        return new Ref(m.group(1), m.group(2), m.group(3) == null ? "latest" : m.group(3), m.group(4));
    }

    @Override
    public Map<String, String> read(String ref) {
        Ref r = parse(ref);
        HttpResponse<byte[]> res = exchange("GET", "/v1/projects/" + r.project() + "/secrets/" + r.secret() + "/versions/"
                + r.version() + ":access", null);
        switch (res.statusCode()) {
            case 200 -> {
                String data = tree(res.body()).path("payload").path("data").asText("");
                Map<String, String> fields;
                try {
                    fields = JSON.readValue(Base64.getDecoder().decode(data), new TypeReference<TreeMap<String, String>>() { });
                } catch (IOException | IllegalArgumentException e) {
                    throw StoreFailures.malformed(ref, "the payload is not a JSON object of string fields");
                }
                if (r.field() != null) {
                    String v = fields.get(r.field());
                    return v == null ? Map.of() : Map.of(r.field(), v);
                }
                return fields;
            }
            case 401, 403 -> throw StoreFailures.forbidden(ref, "'" + ref + "' in Secret Manager");
            case 404 -> throw StoreFailures.notFound(ref, "'" + ref + "' in Secret Manager");
            default -> throw StoreFailures.unavailable(describe(), "HTTP " + res.statusCode());
        }
    }

    @Override
    public void write(String ref, Map<String, String> fields) {
        Ref r = parse(ref);
        String payload;
        try {
            payload = Base64.getEncoder().encodeToString(JSON.writeValueAsBytes(new TreeMap<>(fields)));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        String secret = "/v1/projects/" + r.project() + "/secrets/" + r.secret();
        Map<String, Object> body = Map.of("payload", Map.of("data", payload));
        HttpResponse<byte[]> res = exchange("POST", secret + ":addVersion", body);
        if (res.statusCode() == 404) {
            HttpResponse<byte[]> created = exchange("POST", "/v1/projects/" + r.project() + "/secrets?secretId=" + r.secret(),
                    Map.of("replication", Map.of("automatic", Map.of())));
            if (created.statusCode() / 100 != 2) {
                throw StoreFailures.unavailable(describe(), "creating the secret failed with HTTP " + created.statusCode());
            }
            res = exchange("POST", secret + ":addVersion", body);
        }
        if (res.statusCode() == 401 || res.statusCode() == 403) {
            throw StoreFailures.forbidden(ref, "'" + ref + "' in Secret Manager (write)");
        }
        if (res.statusCode() / 100 != 2) {
            throw StoreFailures.unavailable(describe(), "HTTP " + res.statusCode() + " on write");
        }
    }

    @Override
    public String describe() {
        return "Google Secret Manager at " + endpoint;
    }

    private HttpResponse<byte[]> exchange(String method, String path, Object body) {
        try {
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(endpoint.toString().replaceAll("/+$", "") + path))
                    .timeout(timeout).header("Authorization", "Bearer " + accessToken.get())
                    .header("Accept", "application/json");
            if (body == null) {
                b.method(method, HttpRequest.BodyPublishers.noBody());
            } else {
                b.header("Content-Type", "application/json")
                        .method(method, HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body),
                                StandardCharsets.UTF_8));
            }
            return http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
        } catch (HttpTimeoutException e) {
            throw StoreFailures.unavailable(describe(), "no answer within " + timeout.toMillis() + " ms");
        } catch (IOException e) {
            throw StoreFailures.unavailable(describe(), e.getClass().getSimpleName());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw StoreFailures.unavailable(describe(), "interrupted");
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
