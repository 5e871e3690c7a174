package dev.backplane.kernel.catalog;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.plugin.api.ProductDiscovery;
import dev.backplane.plugin.api.ProductProbe;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The engine hints of a catalog-index entry: how the engine identifies the product behind a target ({@code probe})
 * and lists the product's members through one ({@code discovery}). Both are optional; a malformed one makes the
 * entry, and so the index, unusable.
 */
final class CatalogIndexHints {

    private static final Set<String> DISCOVERY_FIELDS = Set.of("operation", "items", "where", "name", "host", "port",
            "version", "seed");

    private CatalogIndexHints() {
    }

    /**
     * The optional {@code probe} object: {@code path} (GET, from the target's root), {@code version_pointer}
     * (JSON pointer), {@code vendor}, and {@code expect} (JSON pointer to a regular expression) as the product check.
     */
    static Optional<ProductProbe> probe(JsonNode p) {
        if (p.isMissingNode() || p.isNull()) {
            return Optional.empty();
        }
        Map<String, String> expect = new LinkedHashMap<>();
        p.path("expect").properties().forEach(e -> expect.put(e.getKey(), e.getValue().asText()));
        String vendor = p.path("vendor").asText("");
        return Optional.of(new ProductProbe(CatalogIndex.required(p, "path"), CatalogIndex.required(p, "version_pointer"),
                vendor.isBlank() ? Optional.empty() : Optional.of(vendor), expect));
    }

    /**
     * The optional {@code discovery} object: {@code operation} ({@code GET <path template>} of an ingested
     * operation without path parameters), {@code items} (JSON pointer to the list of members, "" for the answer
     * itself), {@code name} and {@code host} (JSON pointers into a member), optional {@code port} and
     * {@code version} pointers, {@code where} (pointer to a regular expression a member must match to be listed)
     * and {@code seed} (pointers to regular expressions that, all matching, mark the member that is the seed).
     */
    static Optional<ProductDiscovery> discovery(JsonNode d) {
        if (d.isMissingNode() || d.isNull()) {
            return Optional.empty();
        }
        for (Map.Entry<String, JsonNode> field : d.properties()) {
            if (!DISCOVERY_FIELDS.contains(field.getKey())) {
                throw new IllegalArgumentException("discovery has an unknown field '" + field.getKey() + "' (known: "
                        + DISCOVERY_FIELDS + ")");
            }
        }
        return Optional.of(new ProductDiscovery(CatalogIndex.required(d, "operation"), d.path("items").asText(""), rules(d.path("where")),
                CatalogIndex.required(d, "name"), CatalogIndex.required(d, "host"), optional(d, "port"), optional(d, "version"),
                rules(d.path("seed"))));
    }

    private static Map<String, String> rules(JsonNode n) {
        Map<String, String> out = new LinkedHashMap<>();
        n.properties().forEach(e -> out.put(e.getKey(), e.getValue().asText()));
        return out;
    }

    private static Optional<String> optional(JsonNode n, String field) {
        String v = n.path(field).asText("");
        return v.isBlank() ? Optional.empty() : Optional.of(v);
    }
}
