package dev.backplane.kernel.http;

import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.errors.ErrorKind;
import io.helidon.http.DirectHandler;
import io.helidon.http.HeaderNames;
import io.helidon.http.HttpException;
import io.helidon.http.Status;
import io.helidon.webserver.http.DirectHandlers;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.lang.System.Logger.Level;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Renders every failure as the JSON {@link ErrorEnvelope}: thrown {@link DomainException}s (with the status of their
 * {@link ErrorKind}), Helidon's own
 * HTTP exceptions, unexpected exceptions (500, logged with the request id, no stack trace on the
 * wire) and transport-level rejections that never reach routing.
 */
public final class ErrorMapping {

    private static final Status UNPROCESSABLE = Status.create(422, "Unprocessable Content");
    private static final System.Logger LOG = System.getLogger(ErrorMapping.class.getName());

    private ErrorMapping() {
    }

    /** Registers the error handlers and the catch-all 404 on {@code routing}; call last. */
    public static void register(HttpRouting.Builder routing) {
        routing.error(DomainException.class, ErrorMapping::domainException)
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
        throw CommonErrors.NOT_FOUND.error("no route " + req.prologue().method().text() + " "
                + req.path().path());
    }

    private static void domainException(ServerRequest req, ServerResponse res, DomainException e) {
        Status status = status(e.kind());
        if (status.code() >= 500) {
            LOG.log(Level.WARNING, "request " + RequestIds.of(req) + " failed: " + e.code() + ": " + e.getMessage());
        }
        e.headers().forEach((name, value) -> res.header(HeaderNames.create(name), value));
        Json.send(res, status, envelope(e));
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
        Json.send(res, status, new ErrorEnvelope(code, message, Map.of("error_code", code)));
    }

    private static void unexpected(ServerRequest req, ServerResponse res, Throwable e) {
        String id = RequestIds.of(req);
        if (poolTimedOut(e)) {
            // not a fault of ours to hide behind a 500: every connection of the pool was busy for its whole timeout
            LOG.log(Level.WARNING, "request " + id + " " + req.prologue().method().text() + " " + req.path().path()
                    + ": no database connection within the pool's timeout (" + e.getMessage() + ")");
            domainException(req, res, CommonErrors.DATABASE_BUSY.error("the database had no free connection in time; "
                    + "retry shortly").withHeaders(Map.of("Retry-After", "1")));
            return;
        }
        LOG.log(Level.ERROR, "request " + id + " " + req.prologue().method().text() + " " + req.path().path()
                + " failed unexpectedly", e);
        Json.send(res, Status.INTERNAL_SERVER_ERROR_500, envelope(CommonErrors.INTERNAL_ERROR.error("internal error; quote request id " + id + " when reporting it")));
    }

    /** Whether {@code e} comes from waiting for a pooled database connection longer than the pool allows. */
    private static boolean poolTimedOut(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof java.sql.SQLTransientConnectionException) {
                return true;
            }
        }
        return false;
    }

    /** The one JSON body of an error: {@code error}, {@code message}, {@code extras} with {@code error_code}. */
    public static ErrorEnvelope envelope(DomainException e) {
        Map<String, Object> all = new LinkedHashMap<>();
        all.put("error_code", e.code());
        all.putAll(e.extras());
        return new ErrorEnvelope(e.code(), e.getMessage(), all);
    }

    /** The HTTP status of each kind of domain error: the only place the two meet. */
    public static Status status(ErrorKind kind) {
        return switch (kind) {
            case BAD_REQUEST -> Status.BAD_REQUEST_400;
            case UNAUTHENTICATED -> Status.UNAUTHORIZED_401;
            case FORBIDDEN -> Status.FORBIDDEN_403;
            case NOT_FOUND -> Status.NOT_FOUND_404;
            case METHOD_NOT_ALLOWED -> Status.METHOD_NOT_ALLOWED_405;
            case CONFLICT -> Status.CONFLICT_409;
            case TOO_LARGE -> Status.REQUEST_ENTITY_TOO_LARGE_413;
            case INVALID -> UNPROCESSABLE;
            case RATE_LIMITED -> Status.TOO_MANY_REQUESTS_429;
            case INTERNAL -> Status.INTERNAL_SERVER_ERROR_500;
            case NOT_IMPLEMENTED -> Status.NOT_IMPLEMENTED_501;
            case UPSTREAM_FAILED -> Status.BAD_GATEWAY_502;
            case UNAVAILABLE -> Status.SERVICE_UNAVAILABLE_503;
        };
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
