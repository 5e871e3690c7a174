package dev.backplane.plugins.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.ErrorCode;
import dev.backplane.plugin.api.OpClass;
import dev.backplane.plugin.api.OperationDescriptor;
import dev.backplane.plugin.api.OperationShape;
import dev.backplane.plugin.api.ProductDiscovery;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

/**
 * Discovery of an ingested connector, as its catalog index entry declares it ({@link ProductDiscovery}): the
 * declared read is one of the ingested operations (never a credential read), and each member of its answer
 * that passes the {@code where} rules becomes a candidate of the connector's product, its fields read by JSON
 * pointer. Nothing here knows a vendor; the index does.
 */
final class SpecMembers {

    private SpecMembers() {
    }

    /** The ingested operation the declaration names, or connector_error saying what is wrong with it. */
    static OperationDescriptor operation(ProductDiscovery d, List<OperationDescriptor> ops, String connectorId) {
        for (OperationDescriptor op : ops) {
            if (op.shape() instanceof OperationShape.Http http && http.method().equalsIgnoreCase(d.method())
                    && http.pathTemplate().equals(d.path())) {
                if (op.opClass() == OpClass.CREDENTIAL_READ) {
                    throw new ConnectorException(ErrorCode.CONNECTOR_ERROR, "the catalog index's discovery for "
                            + connectorId + " names " + d.operation() + ", a credential read; discovery never sends one");
                }
                return op;
            }
        }
        throw new ConnectorException(ErrorCode.CONNECTOR_ERROR, "the catalog index's discovery for " + connectorId
                + " names " + d.operation() + ", which the ingested spec does not have (re-ingest, or fix the index)");
    }

    /**
     * The candidates in {@code answer}.
     *
     * @param what the request sent, for messages ({@code GET /api2/json/cluster/status})
     * @param seedName the seed target's name, for the notes
     * @param scrub takes the session's secrets out of each text
     */
    static List<Map<String, Object>> of(ProductDiscovery d, JsonNode answer, String product, String what,
                                        String seedName, UnaryOperator<String> scrub) {
        JsonNode items = answer.at(d.items());
        if (!items.isArray()) {
            throw new ConnectorException(ErrorCode.CONNECTOR_ERROR, what + " answered no list at '" + d.items()
                    + "' (the catalog index's discovery.items)", Map.of("pointer", d.items()), null);
        }
        List<Map<String, Object>> out = new ArrayList<>();
        for (JsonNode item : items) {
            if (!matchesAll(item, d.where())) {
                continue;
            }
            Map<String, Object> c = new LinkedHashMap<>();
            text(item, d.name()).map(scrub).ifPresent(n -> c.put("name", n));
            c.put("product", product);
            text(item, d.host()).map(scrub).ifPresent(h -> c.put("host", h));
            d.port().map(item::at).filter(JsonNode::canConvertToInt).ifPresent(p -> c.put("port", p.asInt()));
            d.port().flatMap(p -> text(item, p)).filter(p -> p.matches("\\d{1,5}"))
                    .ifPresent(p -> c.putIfAbsent("port", Integer.parseInt(p)));
            d.version().flatMap(v -> text(item, v)).map(scrub).ifPresent(v -> c.put("version", v));
            c.put("notes", "listed by " + what + " through " + seedName);
            if (!d.seed().isEmpty() && matchesAll(item, d.seed())) {
                c.put("seed", true);
            }
            out.add(c);
        }
        return out;
    }

    private static boolean matchesAll(JsonNode item, Map<String, String> rules) {
        for (Map.Entry<String, String> r : rules.entrySet()) {
            Optional<String> v = text(item, r.getKey());
            if (v.isEmpty() || !Pattern.compile(r.getValue()).matcher(v.get()).find()) {
                return false;
            }
        }
        return true;
    }

    private static Optional<String> text(JsonNode item, String pointer) {
        JsonNode v = item.at(pointer);
        return v.isValueNode() && !v.isNull() && !v.asText().isBlank() ? Optional.of(v.asText().strip()) : Optional.empty();
    }
}
