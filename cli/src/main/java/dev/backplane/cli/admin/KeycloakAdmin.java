package dev.backplane.cli.admin;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.ExitCodes;
import dev.backplane.cli.common.Http;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * A small client of the Keycloak admin REST API, authenticated as a master-realm administrator
 * ({@link #login}).
 *
 * @param token the administrator's access token: a credential, so never part of {@link #toString}
 */
record KeycloakAdmin(Http http, URI base, String token) {

    @Override
    public String toString() {
        return "KeycloakAdmin[" + base + "]";
    }

    static KeycloakAdmin login(Http http, URI base, String username, String password) {
        Http.Response r = http.postForm(URI.create(base + "/realms/master/protocol/openid-connect/token"), Map.of(
                "grant_type", "password", "client_id", "admin-cli", "username", username, "password", password));
        if (r.status() == 401 || r.status() == 400) {
            throw new CliException(ExitCodes.DENIED, "Keycloak at " + base + " refused the administrator login for '"
                    + username + "' (" + r.json().path("error").asText("HTTP " + r.status()) + ")");
        }
        if (!r.ok()) {
            throw CliException.failed("Keycloak admin login failed: HTTP " + r.status() + " " + Http.abbreviate(r.text()));
        }
        return new KeycloakAdmin(http, base, r.json().path("access_token").asText());
    }

    Optional<JsonNode> get(String path) {
        Http.Response r = http.send(request(path).GET().build());
        if (r.status() == 404) {
            return Optional.empty();
        }
        return Optional.of(checked("GET", path, r).json());
    }

    /** POSTs and returns the id from the Location header, if any. */
    Optional<String> post(String path, Object body) {
        Http.Response r = checked("POST", path, http.send(request(path).POST(json(body)).build()));
        return r.headers().firstValue("Location").map(l -> l.substring(l.lastIndexOf('/') + 1));
    }

    void put(String path, Object body) {
        checked("PUT", path, http.send(request(path).PUT(body == null ? HttpRequest.BodyPublishers.noBody() : json(body))
                .build()));
    }

    void delete(String path) {
        checked("DELETE", path, http.send(request(path).DELETE().build()));
    }

    static String q(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create(base + "/admin/realms" + path))
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + token)
                .header("Accept", "application/json")
                .header("Content-Type", "application/json");
    }

    private static HttpRequest.BodyPublisher json(Object body) {
        try {
            return HttpRequest.BodyPublishers.ofByteArray(Http.JSON.writeValueAsBytes(body));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Http.Response checked(String method, String path, Http.Response r) {
        if (r.ok()) {
            return r;
        }
        if (r.status() == 403) {
            throw new CliException(ExitCodes.DENIED, "Keycloak refused " + method + " " + path
                    + ": the administrator lacks the needed role");
        }
        throw CliException.failed("Keycloak " + method + " /admin/realms" + path + " failed: HTTP " + r.status() + " "
                + Http.abbreviate(r.text()));
    }
}
