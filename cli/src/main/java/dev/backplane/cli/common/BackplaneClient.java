package dev.backplane.cli.common;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Calls the backplane's REST API with the caller's bearer token and turns its error envelope into a
 * {@link CliException} with the right exit code.
 *
 * @param token gives the bearer token as each request is sent (a login refreshes it when due)
 * @param tenant the tenant to act in ({@code X-Svc-Tenant}), if not the caller's own
 * @param levels version negotiation: the level sent with each request and the check of each answer; null for none
 */
public record BackplaneClient(URI base, Http http, Supplier<String> token, Optional<String> tenant,
                              ApiLevels levels) {

    public BackplaneClient(URI base, Http http, Supplier<String> token, Optional<String> tenant) {
        this(base, http, token, tenant, null);
    }

    /** A route that needs no token, such as {@code /api/v1/info}. */
    public Http.Response getPublic(String path) {
        HttpRequest.Builder b = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(30)).GET()
                .header("Accept", "application/json");
        leveled(b);
        return checked(http.send(b.build()));
    }

    /** Says which API level this CLI speaks, when it knows. */
    private void leveled(HttpRequest.Builder b) {
        if (levels != null && levels.ours() != null) {
            b.header(ApiLevels.HEADER, levels.ours());
        }
    }

    public Http.Response get(String path) {
        return call("GET", path, null);
    }

    public Http.Response call(String method, String path, Object body) {
        return call(method, path, body, Duration.ofSeconds(60));
    }

    /** A call that may take longer than the usual minute (a synchronous agent run waits for its outcome). */
    public Http.Response call(String method, String path, Object body, Duration timeout) {
        HttpRequest.Builder b = HttpRequest.newBuilder(base.resolve(path))
                .timeout(timeout)
                .header("Accept", "application/json")
                .header("Authorization", "Bearer " + token.get());
        tenant.ifPresent(t -> b.header("X-Svc-Tenant", t));
        leveled(b);
        if (body == null) {
            b.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            try {
                b.header("Content-Type", "application/json")
                        .method(method, HttpRequest.BodyPublishers.ofByteArray(Http.JSON.writeValueAsBytes(body)));
            } catch (JsonProcessingException e) {
                throw new IllegalStateException(e);
            }
        }
        return checked(http.send(b.build()));
    }

    /** POSTs {@code body} to a route that answers server-sent events; every line goes to {@code line}. */
    public void stream(String path, Object body, java.util.function.Consumer<String> line) {
        HttpRequest.Builder b = HttpRequest.newBuilder(base.resolve(path))
                .header("Accept", "text/event-stream")
                .header("Authorization", "Bearer " + token.get());
        tenant.ifPresent(t -> b.header("X-Svc-Tenant", t));
        leveled(b);
        try {
            b.header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(Http.JSON.writeValueAsBytes(body)));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        checked(http.stream(b.build(), line));
    }

    /**
     * GETs a server-sent-event route, resuming after {@code lastEventId} when given; every line goes to
     * {@code line} until it answers false or the server ends the stream.
     */
    public void watch(String path, Optional<String> lastEventId, java.util.function.Predicate<String> line) {
        HttpRequest.Builder b = HttpRequest.newBuilder(base.resolve(path))
                .header("Accept", "text/event-stream")
                .header("Authorization", "Bearer " + token.get());
        tenant.ifPresent(t -> b.header("X-Svc-Tenant", t));
        lastEventId.ifPresent(id -> b.header("Last-Event-ID", id));
        leveled(b);
        checked(http.streamWhile(b.GET().build(), line));
    }

    private Http.Response checked(Http.Response r) {
        if (levels != null && r.headers() != null) {
            levels.observe(base, r.headers());
        }
        if (r.ok()) {
            return r;
        }
        String code = "http_" + r.status();
        String message = Http.abbreviate(r.text());
        try {
            JsonNode j = Http.JSON.readTree(r.body());
            code = j.path("extras").path("error_code").asText(j.path("error").asText(code));
            message = j.path("message").asText(message);
        } catch (Exception notJson) {
            // keep the raw text
        }
        String text = code + ": " + message;
        throw switch (r.status()) {
            case 401 -> new CliException(ExitCodes.NOT_LOGGED_IN, "the backplane refused the login (" + text
                    + "); run svc login " + base);
            case 403 -> new CliException(ExitCodes.DENIED, text);
            default -> new CliException(ExitCodes.FAILED, text);
        };
    }
}
