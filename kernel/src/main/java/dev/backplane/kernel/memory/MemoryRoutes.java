package dev.backplane.kernel.memory;

import dev.backplane.kernel.http.ApiRoutes;
import dev.backplane.kernel.http.Json;
import dev.backplane.kernel.http.QueryParams;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.Role;
import dev.backplane.kernel.retrieval.SearchLog;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** {@code /api/v1/memory} (list, write), {@code .../promote}, {@code /api/v1/memory/{scope}/{slug}} and {@code /api/v1/retrieve}. */
public record MemoryRoutes(MemoryService memory) {

    /** Body of a write. {@code expires_at} present and null keeps the entry forever. */
    record WriteBody(String body, String scope, String targetName, List<String> tags, String slug,
                     com.fasterxml.jackson.databind.JsonNode expiresAt) {
    }

    /** Body of a promotion. */
    record PromoteBody(String to, Boolean move, String targetName) {
    }

    public void register(ApiRoutes api) {
        api.get("/api/v1/memory", Role.READ_ONLY, this::list)
                .post("/api/v1/memory", Role.OPERATOR, this::write)
                .get("/api/v1/memory/{scope}/{slug}", Role.READ_ONLY, (req, res, c) -> Json.ok(res, memory.show(c,
                        req.path().pathParameters().get("scope"), req.path().pathParameters().get("slug"),
                        req.query().first("target_name").asOptional())))
                .post("/api/v1/memory/{scope}/{slug}/promote", Role.OPERATOR, this::promote)
                .get("/api/v1/retrieve", Role.READ_ONLY, this::retrieve);
    }

    private void retrieve(ServerRequest req, ServerResponse res, Caller c) {
        String query = req.query().first("query").asOptional().orElse("");
        Json.ok(res, Map.of("hits", memory.search(c, SearchLog.Transport.REST, query,
                req.query().first("scope").asOptional(), QueryParams.integer(req, "limit", 10))));
    }

    private void list(ServerRequest req, ServerResponse res, Caller c) {
        Json.ok(res, memory.list(c, req.query().first("scope").asOptional(), req.query().first("slug_pattern").asOptional(),
                req.query().first("tag").asOptional(), QueryParams.flag(req, "include_expired"),
                QueryParams.integer(req, "limit", 100), QueryParams.integer(req, "offset", 0)));
    }

    private void write(ServerRequest req, ServerResponse res, Caller c) {
        WriteBody b = Json.read(req, WriteBody.class);
        boolean persist = b.expiresAt() != null && b.expiresAt().isNull();
        Optional<Instant> expires = Optional.empty();
        if (b.expiresAt() != null && !b.expiresAt().isNull()) {
            try {
                expires = Optional.of(dev.backplane.kernel.util.Times.inRange(Instant.parse(b.expiresAt().asText()),
                        "expires_at", "invalid_expires_at"));
            } catch (DateTimeParseException e) {
                throw MemoryErrors.INVALID_EXPIRES_AT.error("expires_at must be an ISO 8601 instant or null",
                        Map.of("field", "expires_at"));
            }
        }
        Json.send(res, Status.CREATED_201, memory.add(c, new MemoryService.Write(b.scope() == null ? "user-tenant"
                : b.scope(), Optional.ofNullable(b.slug()), b.body(), b.tags(), Optional.ofNullable(b.targetName()),
                expires, persist)));
    }

    private void promote(ServerRequest req, ServerResponse res, Caller c) {
        PromoteBody b = Json.read(req, PromoteBody.class);
        Json.ok(res, memory.promote(c, req.path().pathParameters().get("scope"), req.path().pathParameters().get("slug"),
                Optional.ofNullable(b.targetName()), b.to(), Boolean.TRUE.equals(b.move())));
    }
}
