package dev.backplane.kernel.catalog;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.util.JsonMapping;
import dev.backplane.plugin.api.AuthScheme;
import dev.backplane.plugin.api.Catalog;
import dev.backplane.plugin.api.OpClass;
import dev.backplane.plugin.api.OperationDescriptor;
import dev.backplane.plugin.api.OperationGroup;
import dev.backplane.plugin.api.OperationShape;
import dev.backplane.plugin.api.ResultKind;
import dev.backplane.plugin.api.SafetyLevel;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The JSON form of an ingested connector's catalog and auth scheme: what {@code catalog_ingested_connectors} stores
 * and what its revision is computed over, and the catalog read back from it.
 */
final class IngestedJson {

    /** The stored catalog's member holding the rules file's rules as applied (absent when there were none). */
    static final String CLASSIFICATION_RULES = "classification_rules";
    /** Op id → why it got its class and safety; stored beside the catalog, outside its revision. */
    static final String CLASSIFICATION_REASONS = "classification_reasons";

    private IngestedJson() {
    }

    static Map<String, Object> authJson(AuthScheme a) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("scheme", a.scheme());
        m.put("secret_fields", a.secretFields());
        m.put("settings", a.settings());
        return m;
    }

    /** The catalog as stored (and as the revision is computed over): groups and operations. */
    static Map<String, Object> catalogJson(Catalog c) {
        List<Map<String, Object>> groups = new ArrayList<>();
        for (OperationGroup g : c.groups()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("group_key", g.groupKey());
            m.put("display_name", g.displayName());
            m.put("when_to_use", g.whenToUse());
            groups.add(m);
        }
        List<Map<String, Object>> ops = new ArrayList<>();
        for (OperationDescriptor o : c.operations()) {
            OperationShape.Http http = (OperationShape.Http) o.shape();
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("op_id", o.opId());
            m.put("group_key", o.groupKey());
            m.put("description", o.description());
            m.put("safety_level", o.safetyLevel().wireName());
            m.put("requires_approval", o.requiresApproval());
            m.put("op_class", o.opClass().wireName());
            m.put("method", http.method());
            m.put("path", http.pathTemplate());
            m.put("result_kind", o.resultKind().wireName());
            m.put("params_schema", JsonMapping.tree(o.paramsSchema(), "params schema"));
            ops.add(m);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("groups", groups);
        out.put("operations", ops);
        return out;
    }

    static Catalog decodeCatalog(JsonNode n) {
        List<OperationGroup> groups = new ArrayList<>();
        n.path("groups").forEach(g -> groups.add(new OperationGroup(g.path("group_key").asText(),
                g.path("display_name").asText(), g.path("when_to_use").asText())));
        List<OperationDescriptor> ops = new ArrayList<>();
        n.path("operations").forEach(o -> ops.add(new OperationDescriptor(o.path("op_id").asText(),
                o.path("group_key").asText(), o.path("description").asText(),
                SafetyLevel.valueOf(o.path("safety_level").asText().toUpperCase(Locale.ROOT)),
                o.path("requires_approval").asBoolean(),
                OpClass.valueOf(o.path("op_class").asText().toUpperCase(Locale.ROOT)),
                o.path("params_schema").toString(),
                new OperationShape.Http(o.path("method").asText(), o.path("path").asText()),
                ResultKind.valueOf(o.path("result_kind").asText().toUpperCase(Locale.ROOT)))));
        return new Catalog(groups, ops);
    }
}
