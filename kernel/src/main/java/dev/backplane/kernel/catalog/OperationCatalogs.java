package dev.backplane.kernel.catalog;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.catalog.CatalogService.OperationCatalog;
import dev.backplane.kernel.http.Json;
import dev.backplane.kernel.plugins.LoadedConnector;
import dev.backplane.kernel.util.Digests;
import dev.backplane.plugin.api.ConnectorDescriptor;
import dev.backplane.plugin.api.OperationDescriptor;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Builds the operation catalog the CLI makes its per-family verbs from: every connector's operations as the tenant
 * sees them (overrides applied) with their params schemas, and a revision that changes whenever any of it does.
 */
final class OperationCatalogs {

    private OperationCatalogs() {
    }

    /** The catalog of {@code connectors}, each with the tenant's overrides {@code overridesOf(connectorId)}. */
    static OperationCatalog of(Collection<LoadedConnector> connectors,
                               Function<String, Map<String, ReviewStore.OpOverride>> overridesOf) {
        List<Map<String, Object>> out = new ArrayList<>();
        StringBuilder digestInput = new StringBuilder();
        for (LoadedConnector c : connectors) {
            Map<String, ReviewStore.OpOverride> overrides = overridesOf.apply(c.connectorId());
            List<Map<String, Object>> ops = new ArrayList<>();
            for (OperationDescriptor d : c.catalog().operations()) {
                OperationView v = OperationView.of(d, overrides.get(d.opId()));
                Map<String, Object> op = new LinkedHashMap<>();
                op.put("op_id", d.opId());
                op.put("group_key", d.groupKey());
                op.put("description", v.customDescription().orElse(d.description()));
                op.put("safety_level", v.safetyLevel());
                op.put("requires_approval", v.requiresApproval());
                op.put("op_class", v.opClass());
                op.put("result_kind", v.resultKind());
                op.put("params_schema", schemaTree(d.paramsSchema()));
                ops.add(op);
                digestInput.append(c.connectorId()).append('|').append(d.opId()).append('|').append(d.paramsSchema())
                        .append('|').append(op.get("description")).append('|').append(v.safetyLevel()).append('\n');
            }
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("connector_id", c.connectorId());
            entry.put("impl_id", c.descriptor().implId());
            entry.put("version", c.descriptor().version());
            entry.put("products", c.descriptor().products().stream().map(ConnectorDescriptor.Product::token).toList());
            entry.put("operations", ops);
            out.add(entry);
        }
        return new OperationCatalog(Digests.sha256Hex(digestInput.toString()), out);
    }

    private static JsonNode schemaTree(String schema) {
        try {
            return Json.mapper().readTree(schema);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a loaded plugin's params schema is not JSON", e); // loading validated it
        }
    }
}
