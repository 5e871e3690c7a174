package dev.backplane.kernel.http;

import io.helidon.http.DirectHandler;
import io.helidon.http.HeaderNames;
import io.helidon.http.HttpException;
import io.helidon.http.Status;
import io.helidon.webserver.http.DirectHandlers;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.lang.System.Logger.Level;
import java.util.Locale;
import java.util.Map;

/**
 * Renders every failure as the JSON {@link ErrorEnvelope}: thrown {@link ApiException}s, Helidon's own
 * HTTP exceptions, unexpected exceptions (500, logged with the request id, no stack trace on the
 * wire) and transport-level rejections that never reach routing.
 */
public final class ErrorMapping {

    private static final System.Logger LOG = System.getLogger(ErrorMapping.class.getName());

    private ErrorMapping() {
    }

    /** Registers the error handlers and the catch-all 404 on {@code routing}; call last. */
    public static void register(HttpRouting.Builder routing) {
        routing.error(ApiException.class, ErrorMapping::apiException)
                .error(HttpException.class, ErrorMapping::httpException)
                .error(Throwable.class, ErrorMapping::unexpected)
                .any(ErrorMapping::noRoute);
    }

    /** Direct handlers: errors Helidon raises before routing (malformed requests, oversized payloads). */
    public static DirectHandlers directHandlers() {
        DirectHandler handler = (request, eventType, status, headers, message) -> {
            ErrorEnvelope body = new ErrorEnvelope(codeFor(status), "request rejected: " + status.reasonPhrase(),
                    Map.of("error_code", codeFor(status)));
            return DirectHandler.TransportResponse.builder()
                    .status(status)
                    .headers(headers)
                    .header(HeaderNames.CONTENT_TYPE, "application/json")
                    .entity(Json.write(body))
                    .build();
        };
        DirectHandlers.Builder builder = DirectHandlers.builder();
        for (DirectHandler.EventType type : DirectHandler.EventType.values()) {
            builder.addHandler(type, handler);
        }
        return builder.build();
    }

    private static void noRoute(ServerRequest req, ServerResponse res) {
        throw ApiException.notFound("not_found", "no route " + req.prologue().method().text() + " "
                + req.path().path());
    }

    private static void apiException(ServerRequest req, ServerResponse res, ApiException e) {
        if (e.status().code() >= 500) {
            LOG.log(Level.WARNING, "request " + RequestIds.of(req) + " failed: " + e.code() + ": " + e.getMessage());
        }
        e.headers().forEach((name, value) -> res.header(HeaderNames.create(name), value));
        Json.send(res, e.status(), e.toEnvelope());
    }

    private static void httpException(ServerRequest req, ServerResponse res, HttpException e) {
        Status status = e.status();
        if (status.code() >= 500) {
            unexpected(req, res, e);
            return;
        }
        String code = codeFor(status);
        String message = status.code() == 405 ? "method " + req.prologue().method().text() + " is not allowed here"
                : status.reasonPhrase();
        Json.send(res, status, new ApiException(status, code, message).toEnvelope());
    }

    private static void unexpected(ServerRequest req, ServerResponse res, Throwable e) {
        String id = RequestIds.of(req);
        LOG.log(Level.ERROR, "request " + id + " " + req.prologue().method().text() + " " + req.path().path()
                + " failed unexpectedly", e);
        Json.send(res, Status.INTERNAL_SERVER_ERROR_500, new ApiException(Status.INTERNAL_SERVER_ERROR_500,
                "internal_error", "internal error; quote request id " + id + " when reporting it").toEnvelope());
    }

    static String codeFor(Status status) {
        return switch (status.code()) {
            case 400 -> "bad_request";
            case 401 -> "unauthorized";
            case 403 -> "forbidden";
            case 404 -> "not_found";
            case 405 -> "method_not_allowed";
            case 413 -> "body_too_large";
            case 415 -> "unsupported_media_type";
            case 505 -> "http_version_not_supported";
            default -> status.reasonPhrase().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "_");
        };
    }
}
