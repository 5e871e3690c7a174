package dev.backplane.cli.connectors;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.Http;
import dev.backplane.cli.common.TextArgs;
import java.util.Map;

/** {@code svc operation call / preview / result-query}: the dispatch verbs. */
final class OperationCalls {

    private OperationCalls() {
    }

    static Map<String, Object> params(String text) {
        if (text == null) {
            return Map.of();
        }
        String json = TextArgs.read(text, "--params");
        try {
            JsonNode node = Http.JSON.readTree(json);
            if (node == null || !node.isObject()) {
                throw CliException.usage("--params must be a JSON object, e.g. '{\"namespace\": \"web\"}'");
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> map = Http.JSON.convertValue(node, Map.class);
            return map;
        } catch (java.io.IOException e) {
            throw CliException.usage("--params is not valid JSON: " + e.getMessage());
        }
    }
}
