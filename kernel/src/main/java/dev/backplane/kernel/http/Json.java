package dev.backplane.kernel.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.util.JsonMapping;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.util.Map;

/**
 * JSON on the wire: snake_case field names, ISO 8601 times, unknown request fields refused.
 * Handlers read bodies with {@link #read} and answer with {@link #send}.
 */
public final class Json {

    /** Request bodies larger than this are refused before parsing. */
    public static final int MAX_BODY_BYTES = 1 << 20;

    private static final ObjectMapper MAPPER = JsonMapping.mapper();

    private Json() {
    }

    public static ObjectMapper mapper() {
        return MAPPER;
    }

    public static <T> T read(ServerRequest req, Class<T> type) {
        return read(req, type, MAX_BODY_BYTES);
    }

    /** The body a handler read, kept in the request's context for the governance audit trail. */
    public record Body(com.fasterxml.jackson.databind.JsonNode tree) {
    }

    /** Like {@link #read(ServerRequest, Class)} for the few routes that take bigger bodies (spec uploads). */
    public static <T> T read(ServerRequest req, Class<T> type, int maxBytes) {
        byte[] body = body(req, maxBytes, () -> CommonErrors.BODY_TOO_LARGE.error("request body exceeds " + maxBytes
                + " bytes"));
        if (body.length == 0) {
            throw CommonErrors.UNREADABLE_REQUEST.error("a JSON request body is required");
        }
        try {
            com.fasterxml.jackson.databind.JsonNode tree = MAPPER.readTree(body);
            if (tree == null || tree.isMissingNode() || tree.isNull()) {
                throw CommonErrors.UNREADABLE_REQUEST.error("a JSON request body is required");
            }
            TextGuard.check(tree);
            req.context().register(Body.class, new Body(tree));
            return MAPPER.treeToValue(tree, type);
        } catch (UnrecognizedPropertyException e) {
            throw CommonErrors.INVALID_REQUEST.error("unknown field '" + e.getPropertyName() + "'",
                    Map.of("known_fields", e.getKnownPropertyIds().stream().map(Object::toString).sorted().toList()));
        } catch (com.fasterxml.jackson.databind.exc.MismatchedInputException e) {
            // which field, and what it should be — never the value sent (it may be a secret)
            String field = e.getPath().stream().map(r -> r.getFieldName() != null ? r.getFieldName()
                    : "[" + r.getIndex() + "]").reduce((a, b) -> b.startsWith("[") ? a + b : a + "." + b).orElse("(body)");
            String wanted = e.getTargetType() == null ? "another type" : e.getTargetType().getSimpleName();
            throw CommonErrors.INVALID_JSON.error("field '" + field + "' has the wrong type for this route "
                    + "(expected " + wanted + ")");
        } catch (JsonProcessingException e) {
            // the parser's own message quotes the offending text, which may be a secret sent unquoted
            var at = e.getLocation();
            throw CommonErrors.INVALID_JSON.error("request body is not valid JSON for this route"
                    + (at == null ? "" : " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")"));
        } catch (IOException e) {
            throw CommonErrors.UNREADABLE_REQUEST.error("could not read the request body: " + e.getMessage());
        }
    }

    /**
     * The request's body, refused with {@code tooLarge} past {@code maxBytes}: a body of declared length is checked
     * against the cap before a byte is read and then read whole (Helidon's streaming reader costs a hand-off per
     * chunk), a chunked one is streamed and never read past the cap.
     */
    public static byte[] body(ServerRequest req, long maxBytes, java.util.function.Supplier<DomainException> tooLarge) {
        java.util.OptionalLong declared = req.headers().contentLength();
        if (declared.isPresent() && declared.getAsLong() > maxBytes) {
            throw tooLarge.get();
        }
        byte[] body;
        try {
            if (declared.isPresent() && (declared.getAsLong() == 0 || !req.content().hasEntity())) {
                body = new byte[0];
            } else if (declared.isPresent()) {
                body = req.content().as(byte[].class);
            } else {
                try (var in = req.content().inputStream()) {
                    body = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 1, maxBytes) + 1);
                }
            }
        } catch (IOException | RuntimeException e) {
            throw CommonErrors.UNREADABLE_REQUEST.error("could not read the request body");
        }
        if (body.length > maxBytes) {
            throw tooLarge.get();
        }
        return body;
    }

    public static void send(ServerResponse res, Status status, Object body) {
        byte[] bytes;
        try {
            bytes = MAPPER.writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("response is not serializable: " + body.getClass().getName(), e);
        }
        res.status(status);
        res.header(HeaderNames.CONTENT_TYPE, "application/json");
        res.send(bytes);
    }

    public static void ok(ServerResponse res, Object body) {
        send(res, Status.OK_200, body);
    }

    public static String write(Object value) {
        return JsonMapping.write(value);
    }
}
