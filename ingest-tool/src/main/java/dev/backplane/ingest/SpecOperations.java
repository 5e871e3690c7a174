package dev.backplane.ingest;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.backplane.ingest.SpecParser.ParsedSpec;
import dev.backplane.plugin.api.OperationDescriptor;
import dev.backplane.plugin.api.OperationShape;
import dev.backplane.plugin.api.ResultKind;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.parameters.RequestBody;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.tags.Tag;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/** Turns every (path, method) of one parsed spec into an {@link OperationDescriptor}. */
final class SpecOperations {

    private static final int DESCRIPTION_CHARS = 1000;

    private final ParsedSpec spec;
    private final String pathPrefix;
    private final ObjectMapper mapper;
    private final Consumer<String> warnings;
    private final LocalRefs refs;
    private final ParamsSchemaBuilder params;
    private final Map<String, String> tagDescriptions = new HashMap<>();
    private final CredentialReads credentialReads;

    /**
     * @param pathPrefix prepended to every path ("" unless several specs with different base paths merge)
     * @param credentialReads decides which reads hand out secret material
     */
    SpecOperations(ParsedSpec spec, String pathPrefix, ObjectMapper mapper, Consumer<String> warnings,
                   CredentialReads credentialReads) {
        this.spec = requireNonNull(spec, "spec is null");
        this.credentialReads = requireNonNull(credentialReads, "credentialReads is null");
        this.pathPrefix = requireNonNull(pathPrefix, "pathPrefix is null");
        this.mapper = requireNonNull(mapper, "mapper is null");
        this.warnings = requireNonNull(warnings, "warnings is null");
        this.refs = new LocalRefs(spec.openApi());
        SchemaConverter converter = new SchemaConverter(refs, spec.document().isOpenApi31(), mapper,
                message -> warnings.accept(spec.document().raw().displayName() + ": " + message));
        this.params = new ParamsSchemaBuilder(refs, converter);
        if (spec.openApi().getTags() != null) {
            for (Tag tag : spec.openApi().getTags()) {
                if (tag.getName() != null && tag.getDescription() != null) {
                    tagDescriptions.putIfAbsent(tag.getName(), tag.getDescription());
                }
            }
        }
    }

    /** The operations of the spec: (path, method) pairs for GET PUT POST DELETE OPTIONS HEAD PATCH, in order. */
    Map<String, Map<PathItem.HttpMethod, Operation>> operations() {
        Map<String, Map<PathItem.HttpMethod, Operation>> out = new LinkedHashMap<>();
        OpenAPI api = spec.openApi();
        if (api.getPaths() == null) {
            return out;
        }
        for (Map.Entry<String, PathItem> path : api.getPaths().entrySet()) {
            if (!path.getKey().startsWith("/") || path.getValue() == null) {
                warnings.accept("%s: path '%s' skipped (does not start with '/')"
                        .formatted(spec.document().raw().displayName(), path.getKey()));
                continue;
            }
            Map<PathItem.HttpMethod, Operation> methods = new LinkedHashMap<>(path.getValue().readOperationsMap());
            if (methods.remove(PathItem.HttpMethod.TRACE) != null) {
                warnings.accept("%s: TRACE %s skipped (TRACE is not supported)"
                        .formatted(spec.document().raw().displayName(), path.getKey()));
            }
            if (!methods.isEmpty()) {
                out.put(path.getKey(), methods);
            }
        }
        return out;
    }

    /** Adds the spec's operations to {@code catalog}; {@code tick} is called after each one. Returns how many. */
    int convert(Map<String, Map<PathItem.HttpMethod, Operation>> operations, CatalogBuilder catalog, Runnable tick) {
        int count = 0;
        for (Map.Entry<String, Map<PathItem.HttpMethod, Operation>> path : operations.entrySet()) {
            PathItem item = spec.openApi().getPaths().get(path.getKey());
            for (Map.Entry<PathItem.HttpMethod, Operation> method : path.getValue().entrySet()) {
                catalog.add(descriptor(path.getKey(), item, method.getKey().name(), method.getValue(), catalog));
                count++;
                tick.run();
            }
        }
        return count;
    }

    private OperationDescriptor descriptor(String path, PathItem item, String method, Operation operation,
                                           CatalogBuilder catalog) {
        String context = "%s: %s %s".formatted(spec.document().raw().displayName(), method, path);
        String firstTag = operation.getTags() == null ? null
                : operation.getTags().stream().filter(Objects::nonNull).findFirst().orElse(null);
        String groupKey = catalog.group(firstTag, firstTag == null ? null : tagDescriptions.get(firstTag), path);
        String name = operation.getOperationId() == null ? "" : OperationNames.snake(operation.getOperationId());
        if (name.isEmpty()) {
            name = OperationNames.derived(method, path);
        }
        String schema;
        try {
            schema = mapper.writeValueAsString(
                    params.build(path, item.getParameters(), operation, requestBody(path, method, operation),
                            message -> warnings.accept(context + ": " + message)));
        }
        catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        Classification safety = classify(method, path, name, operation);
        String opId = catalog.opId(groupKey, name, message -> warnings.accept(context + ": " + message));
        catalog.classified(opId, safety.reason());
        return new OperationDescriptor(opId, groupKey, description(method, path, operation),
                safety.level(), safety.requiresApproval(), safety.opClass(), schema,
                new OperationShape.Http(method, pathPrefix + path), resultKind(operation));
    }

    /** Credential read when a read hands out secret material, else what method, name and path say. */
    private Classification classify(String method, String path, String name, Operation operation) {
        boolean reads = method.equals("GET") || Classification.readsOnly(method, name, path);
        return credentialReads.credentialRead(method, pathPrefix + path, responseSchemas(operation), refs, reads)
                .map(Classification::credentialRead)
                .orElseGet(() -> Classification.of(method, name, path,
                        credentialReads.isCleared(method, pathPrefix + path)));
    }

    /**
     * The request body, with the operation's own {@code consumes} restored: the Swagger 2 converter turns a
     * shared body parameter into a shared request body under the global media types only (Kubernetes'
     * PATCH bodies would otherwise lose {@code application/json-patch+json}).
     */
    private RequestBody requestBody(String path, String method, Operation operation) {
        RequestBody declared = operation.getRequestBody();
        if (declared == null || declared.get$ref() == null || !spec.document().isSwagger2()) {
            return declared;
        }
        JsonNode consumes = spec.document().tree().path("paths").path(path).path(method.toLowerCase(Locale.ROOT))
                .path("consumes");
        RequestBody target = refs.requestBody(declared);
        if (target == null || target.getContent() == null || target.getContent().isEmpty() || !consumes.isArray()
                || consumes.isEmpty()) {
            return declared;
        }
        MediaType shared = target.getContent().values().iterator().next();
        Content content = new Content();
        consumes.forEach(type -> content.addMediaType(type.asText(), shared));
        return new RequestBody().description(target.getDescription()).required(target.getRequired()).content(content);
    }

    private static String description(String method, String path, Operation operation) {
        String summary = Texts.collapse(operation.getSummary());
        String description = Texts.collapse(operation.getDescription());
        String text = summary.isEmpty() ? description
                : description.isEmpty() || description.equals(summary) ? summary
                : summary + (summary.endsWith(".") ? " " : ". ") + description;
        return text.isEmpty() ? method + " " + path : Texts.bounded(text, DESCRIPTION_CHARS);
    }

    /** SET when the first 2xx response is a JSON array, else OBJECT. */
    private ResultKind resultKind(Operation operation) {
        if (operation.getResponses() == null) {
            return ResultKind.OBJECT;
        }
        for (Map.Entry<String, ApiResponse> entry : operation.getResponses().entrySet()) {
            if (!entry.getKey().startsWith("2")) {
                continue;
            }
            ApiResponse response = refs.response(entry.getValue());
            Map.Entry<String, MediaType> media = response == null ? null : BodyMedia.choose(response.getContent());
            Schema<?> schema = media == null || media.getValue() == null || media.getValue().getSchema() == null
                    ? null : refs.schema(media.getValue().getSchema());
            return schema != null && SchemaShapes.isArray(schema) ? ResultKind.SET : ResultKind.OBJECT;
        }
        return ResultKind.OBJECT;
    }

    /** The schemas of the operation's 2xx responses (for the credential-read heuristic). */
    private List<Schema<?>> responseSchemas(Operation operation) {
        List<Schema<?>> out = new ArrayList<>();
        if (operation.getResponses() == null) {
            return out;
        }
        for (Map.Entry<String, ApiResponse> entry : operation.getResponses().entrySet()) {
            ApiResponse response = entry.getKey().startsWith("2") ? refs.response(entry.getValue()) : null;
            if (response == null || response.getContent() == null) {
                continue;
            }
            response.getContent().values().stream().filter(m -> m != null && m.getSchema() != null)
                    .forEach(m -> out.add(m.getSchema()));
        }
        return out;
    }
}
