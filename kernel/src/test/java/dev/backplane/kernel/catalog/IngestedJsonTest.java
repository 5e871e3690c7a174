package dev.backplane.kernel.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.backplane.kernel.util.JsonMapping;
import dev.backplane.plugin.api.AuthScheme;
import dev.backplane.plugin.api.Catalog;
import dev.backplane.plugin.api.OpClass;
import dev.backplane.plugin.api.OperationDescriptor;
import dev.backplane.plugin.api.OperationGroup;
import dev.backplane.plugin.api.OperationShape;
import dev.backplane.plugin.api.ResultKind;
import dev.backplane.plugin.api.SafetyLevel;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The stored JSON of an ingested connector reads back as the catalog that was stored, and names its wire values. */
class IngestedJsonTest {

    @Test
    void aStoredCatalogReadsBackAsItWas() {
        Catalog c = new Catalog(List.of(new OperationGroup("apps", "Applications", "to list and sync apps")), List.of(
                new OperationDescriptor("acme.apps.list", "apps", "List apps", SafetyLevel.SAFE, false, OpClass.READ,
                        "{\"type\":\"object\",\"properties\":{}}", new OperationShape.Http("GET", "/api/v1/apps"),
                        ResultKind.SET),
                new OperationDescriptor("acme.apps.delete", "apps", "Delete an app", SafetyLevel.DANGEROUS, true,
                        OpClass.WRITE, "{\"type\":\"object\",\"properties\":{\"name\":{\"type\":\"string\"}}}",
                        new OperationShape.Http("DELETE", "/api/v1/apps/{name}"), ResultKind.OBJECT)));
        Map<String, Object> stored = IngestedJson.catalogJson(c);
        @SuppressWarnings("unchecked")
        Map<String, Object> delete = ((List<Map<String, Object>>) stored.get("operations")).get(1);
        assertThat(delete).containsEntry("safety_level", "dangerous").containsEntry("op_class", "write")
                .containsEntry("result_kind", "object").containsEntry("method", "DELETE");
        assertThat(IngestedJson.decodeCatalog(JsonMapping.mapper().valueToTree(stored))).isEqualTo(c);
    }

    @Test
    void theAuthSchemeKeepsItsSecretFieldsAndSettings() {
        assertThat(IngestedJson.authJson(new AuthScheme("static_header", List.of("token"), Map.of("header", "X-Token"))))
                .containsExactly(Map.entry("scheme", "static_header"), Map.entry("secret_fields", List.of("token")),
                        Map.entry("settings", Map.of("header", "X-Token")));
    }
}
