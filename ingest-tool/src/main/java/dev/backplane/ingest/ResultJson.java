package dev.backplane.ingest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.backplane.plugin.api.OperationDescriptor;
import dev.backplane.plugin.api.OperationGroup;
import dev.backplane.plugin.api.OperationShape;

/** An {@link IngestResult} as JSON, with the field names the kernel stores a catalog under. */
final class ResultJson {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private ResultJson() {
    }

    static ObjectNode of(IngestResult result, IngestOptions options) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("connector_id", options.implId() + "-" + options.versionLabel());
        root.put("impl", options.implId());
        root.put("version", options.versionLabel());
        root.put("product", options.product());
        ArrayNode specs = root.putArray("specs");
        for (IngestResult.SpecInfo spec : result.specs()) {
            specs.addObject()
                    .put("location", spec.location())
                    .put("format", spec.format())
                    .put("title", spec.title())
                    .put("info_version", spec.infoVersion())
                    .put("sha256", spec.sha256())
                    .put("bytes", spec.bytes())
                    .put("operations", spec.operations());
        }
        root.put("base_path", result.basePath());
        ArrayNode groups = root.putArray("groups");
        for (OperationGroup group : result.catalog().groups()) {
            groups.addObject()
                    .put("group_key", group.groupKey())
                    .put("display_name", group.displayName())
                    .put("when_to_use", group.whenToUse());
        }
        ArrayNode operations = root.putArray("operations");
        for (OperationDescriptor op : result.catalog().operations()) {
            OperationShape.Http http = (OperationShape.Http) op.shape();
            ObjectNode node = operations.addObject()
                    .put("op_id", op.opId())
                    .put("group_key", op.groupKey())
                    .put("description", op.description())
                    .put("safety_level", op.safetyLevel().wireName())
                    .put("requires_approval", op.requiresApproval())
                    .put("op_class", op.opClass().wireName())
                    .put("classification_reason", result.classifications().get(op.opId()))
                    .put("method", http.method())
                    .put("path", http.pathTemplate())
                    .put("result_kind", op.resultKind().wireName());
            try {
                node.set("params_schema", MAPPER.readTree(op.paramsSchema()));
            }
            catch (JsonProcessingException e) {
                throw new IllegalStateException("params schema of " + op.opId() + " is not JSON", e);
            }
        }
        ArrayNode warnings = root.putArray("warnings");
        result.warnings().forEach(warnings::add);
        return root;
    }

    static String pretty(ObjectNode node) {
        try {
            return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(node);
        }
        catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
