package dev.backplane.kernel.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.backplane.kernel.util.JsonSchemas;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The kernel's own OpenAPI document ({@code openapi/svc-openapi.yaml}, served at {@code /openapi.yaml}) as the
 * contract of every exchange an integration test makes through {@link TestKernel}: the route must be documented,
 * the answered status must be listed for it, a JSON answer must match that status's schema (errors the
 * ErrorEnvelope), a non-JSON answer must carry a documented media type, and a request body the kernel accepted
 * (2xx) must match the operation's request-body schema. So the hand-written document cannot drift from what the
 * API really takes and returns without a test failing.
 *
 * <p>A request the kernel refused is not held to the request schema — refusing it may be the point of the test —
 * but its answer still is. Tests that deliberately send junk a route may accept (the bad-input fuzz) switch the
 * request check off with {@link #acceptingInvalidRequests()}. OpenAPI 3.0's {@code nullable} is honoured by
 * widening the type to admit null, as the generic-openapi replay tests do.
 */
public final class ApiContract {

    /**
     * Path prefixes the document intentionally omits: the web console (HTML pages and form posts, outside the
     * REST API), and its static assets.
     */
    static final List<String> UNDOCUMENTED = List.of("/ui");

    /** The environment variable naming a file to append violations to instead of failing. */
    public static final String REPORT = "SVC_API_CONTRACT_REPORT";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final SchemaRegistry DRAFT_4 = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_4);
    private static final ThreadLocal<Boolean> REQUESTS_UNCHECKED = ThreadLocal.withInitial(() -> false);
    private static volatile ApiContract served;

    private final JsonNode doc;
    private final ObjectNode components;
    private final List<Template> templates;
    private final Map<String, Schema> compiled = new ConcurrentHashMap<>();

    /** A documented path, split into segments; {@code {name}} segments match any one segment. */
    private record Template(String path, String[] segments, int literals) {
        static Template of(String path) {
            String[] segments = path.split("/", -1);
            int literals = 0;
            for (String s : segments) {
                literals += s.startsWith("{") ? 0 : 1;
            }
            return new Template(path, segments, literals);
        }

        boolean matches(String[] concrete) {
            if (concrete.length != segments.length) {
                return false;
            }
            for (int i = 0; i < segments.length; i++) {
                if (!segments[i].startsWith("{") ? !segments[i].equals(concrete[i]) : concrete[i].isEmpty()) {
                    return false;
                }
            }
            return true;
        }
    }

    /** Where request checks are off; closing it turns them back on. */
    public interface Scope extends AutoCloseable {
        @Override
        void close();
    }

    /** One request and its answer, as a test saw them; {@code requestBody} and {@code contentType} may be null. */
    public record Exchange(String method, String path, String requestBody, int status, String contentType,
                           String responseBody) {
    }

    private ApiContract(JsonNode doc) {
        this.doc = doc;
        this.components = (ObjectNode) doc.path("components").deepCopy();
        allowNulls(components);
        List<Template> all = new ArrayList<>();
        doc.path("paths").fieldNames().forEachRemaining(p -> all.add(Template.of(p)));
        // a literal segment wins over a parameter (/targets/import before /targets/{name})
        all.sort(Comparator.comparingInt(Template::literals).reversed());
        this.templates = List.copyOf(all);
    }

    /** The document the kernel serves, read once from the kernel's resources. */
    public static ApiContract served() {
        ApiContract c = served;
        if (c == null) {
            try (InputStream in = ApiContract.class.getClassLoader().getResourceAsStream("openapi/svc-openapi.yaml")) {
                if (in == null) {
                    throw new IllegalStateException("openapi/svc-openapi.yaml is not on the class path");
                }
                c = new ApiContract(new YAMLMapper().readTree(in));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            served = c;
        }
        return c;
    }

    /** A contract from any OpenAPI 3.0 document (the checker's own test). */
    public static ApiContract of(JsonNode openApiDocument) {
        return new ApiContract(openApiDocument);
    }

    /**
     * Stops checking request bodies on this thread until the returned scope is closed; answers are still checked.
     * Only for tests that send invalid bodies on purpose and may see some accepted.
     */
    public static Scope acceptingInvalidRequests() {
        boolean before = REQUESTS_UNCHECKED.get();
        REQUESTS_UNCHECKED.set(true);
        return () -> REQUESTS_UNCHECKED.set(before);
    }

    /**
     * Checks an exchange of an integration test against the served document, failing the test. With the
     * environment variable {@value #REPORT} naming a file, appends the failure there instead and lets the test go
     * on — to list every drift of a test run at once when correcting the document.
     */
    public static void verify(Exchange e) {
        try {
            served().check(e);
        } catch (AssertionError failure) {
            String report = System.getenv(REPORT);
            if (report == null || System.getenv("CI") != null) { // CI never collects drift instead of failing (F21)
                throw failure;
            }
            try {
                Files.writeString(Path.of(report), failure.getMessage() + System.lineSeparator(),
                        StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            } catch (IOException ex) {
                throw new UncheckedIOException(ex);
            }
        }
    }

    /** Throws an AssertionError naming method, path, status and every violation, if there is any. */
    public void check(Exchange e) {
        List<String> violations = violations(e);
        if (!violations.isEmpty()) {
            throw new AssertionError("OpenAPI contract: " + e.method() + " " + e.path() + " -> " + e.status() + ": "
                    + String.join("; ", violations));
        }
    }

    /** What the exchange does that the document does not allow; empty when it conforms. */
    public List<String> violations(Exchange e) {
        String path = pathOnly(e.path());
        if (UNDOCUMENTED.stream().anyMatch(p -> path.equals(p) || path.startsWith(p + "/"))) {
            return List.of();
        }
        Optional<Template> template = match(path);
        if (template.isEmpty()) {
            // a path nobody serves answers the error envelope; a served but undocumented one is a violation
            return e.status() == 404 ? errorEnvelope(e) : List.of("route not in the OpenAPI document");
        }
        String pointer = "/paths/" + escape(template.get().path()) + "/" + e.method().toLowerCase(Locale.ROOT);
        JsonNode op = doc.at(pointer);
        if (op.isMissingNode()) {
            // the kernel answers a method a path does not serve like an unknown route
            return e.status() == 404 || e.status() == 405 ? errorEnvelope(e)
                    : List.of(e.method() + " is not documented for " + template.get().path());
        }
        List<String> out = new ArrayList<>();
        String status = String.valueOf(e.status());
        JsonNode response = op.path("responses").has(status) ? op.path("responses").path(status)
                : op.path("responses").path("default");
        if (response.isMissingNode() && e.status() == 503 && e.responseBody() != null
                && e.responseBody().contains("\"database_busy\"")) {
            // the document's description: any authenticated route may answer 503 database_busy
            out.addAll(errorEnvelope(e));
        } else if (response.isMissingNode() && e.status() == 400 && e.responseBody() != null
                && e.responseBody().contains("\"incompatible_client\"")) {
            // the document's description: any /api/ route refuses a client of another API major
            out.addAll(errorEnvelope(e));
        } else if (response.isMissingNode()) {
            out.add("status " + status + " is not documented for " + e.method() + " " + template.get().path());
        } else {
            out.addAll(body(deref(response), pointer + "/responses/" + status, e.contentType(), e.responseBody(),
                    "response"));
        }
        if (e.status() / 100 == 2 && !REQUESTS_UNCHECKED.get()) {
            out.addAll(request(op, pointer, e.requestBody()));
        }
        return out;
    }

    private List<String> request(JsonNode op, String pointer, String body) {
        JsonNode requestBody = deref(op.path("requestBody"));
        boolean blank = body == null || body.isBlank();
        if (requestBody.isMissingNode()) {
            // an empty object says nothing, and routes without a body ignore it
            return blank || body.strip().equals("{}") ? List.of()
                    : List.of("accepted a request body the document does not describe");
        }
        if (blank) {
            return requestBody.path("required").asBoolean(false)
                    ? List.of("accepted no request body where the document requires one") : List.of();
        }
        return body(requestBody, pointer + "/requestBody", "application/json", body, "request");
    }

    /** Checks a body against the media type of a response or request body object. */
    private List<String> body(JsonNode described, String key, String contentType, String body, String what) {
        JsonNode content = described.path("content");
        boolean empty = body == null || body.isEmpty();
        if (content.isMissingNode() || content.isEmpty()) {
            return empty ? List.of() : List.of(what + " has a body the document does not describe");
        }
        String media = contentType == null ? "" : contentType.split(";")[0].trim().toLowerCase(Locale.ROOT);
        if (!media.contains("json")) {
            return content.has(media) ? List.of()
                    : List.of(what + " content type '" + media + "' is not among " + names(content));
        }
        JsonNode json = content.path(media).isMissingNode() ? content.path("application/json") : content.path(media);
        if (json.isMissingNode()) {
            return List.of(what + " content type '" + media + "' is not among " + names(content));
        }
        if (!json.has("schema")) {
            return List.of();
        }
        JsonNode instance;
        try {
            instance = JSON.readTree(body);
        } catch (IOException ex) {
            return List.of(what + " is not JSON: " + ex.getMessage().lines().findFirst().orElse(""));
        }
        Schema schema = compiled.computeIfAbsent(key, k -> compile(json.path("schema")));
        return JsonSchemas.problems(schema, instance).stream().map(p -> what + " " + p).toList();
    }

    private List<String> errorEnvelope(Exchange e) {
        JsonNode envelope = JSON.createObjectNode().set("content", JSON.createObjectNode().set("application/json",
                JSON.createObjectNode().set("schema", JSON.createObjectNode()
                        .put("$ref", "#/components/schemas/ErrorEnvelope"))));
        return body(envelope, "error envelope", e.contentType(), e.responseBody(), "response");
    }

    private Schema compile(JsonNode schema) {
        ObjectNode root = schema.deepCopy();
        allowNulls(root);
        root.set("components", components);
        Schema s = DRAFT_4.getSchema(root);
        s.initializeValidators();
        return s;
    }

    private Optional<Template> match(String path) {
        String[] concrete = path.split("/", -1);
        return templates.stream().filter(t -> t.matches(concrete)).findFirst();
    }

    /** Follows a local {@code $ref} (to a shared response or request body). */
    private JsonNode deref(JsonNode node) {
        String ref = node.path("$ref").asText("");
        return ref.startsWith("#/") ? deref(doc.at(ref.substring(1))) : node;
    }

    private static String pathOnly(String path) {
        int q = path.indexOf('?');
        return q < 0 ? path : path.substring(0, q);
    }

    private static String escape(String pathTemplate) {
        return pathTemplate.replace("~", "~0").replace("/", "~1");
    }

    private static List<String> names(JsonNode content) {
        List<String> names = new ArrayList<>();
        content.fieldNames().forEachRemaining(names::add);
        return names;
    }

    /** OpenAPI 3.0's {@code nullable: true} means the JSON Schema type also admits null. */
    private static void allowNulls(JsonNode node) {
        if (node instanceof ObjectNode o) {
            if (o.remove("nullable") instanceof JsonNode nullable && nullable.asBoolean(false)) {
                if (o.path("type").isTextual()) {
                    ArrayNode types = JSON.createArrayNode().add(o.path("type").asText()).add("null");
                    o.set("type", types);
                } else if (!o.has("type")) {
                    // nullable on a $ref or a composition: either null or what it describes
                    ObjectNode copy = o.deepCopy();
                    o.removeAll();
                    o.set("anyOf", JSON.createArrayNode().add(JSON.createObjectNode().put("type", "null")).add(copy));
                }
            }
            o.forEach(ApiContract::allowNulls);
        } else if (node instanceof ArrayNode a) {
            a.forEach(ApiContract::allowNulls);
        }
    }
}
