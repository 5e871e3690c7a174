package dev.backplane.kernel.agents;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.util.Digests;
import dev.backplane.kernel.util.JsonMapping;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What a run's {@code tool_call} and {@code tool_result} events keep: what was acted on, never what was sent
 * or answered. Events are served to every operator of the tenant and on the run-events stream, and a tool's
 * arguments are the model's raw text (an operation's params, secrets included) and its result may be a
 * credential read's answer. So a call keeps the tool, the argument names, the connector, operation and
 * target (the fields that name what was acted on) and a hash of the params — the same hash as the call's
 * audit row ({@code params_hash}), so the two can be matched — and a result keeps its status, error code,
 * audit id, approval id and size. The transcript the model sees is unchanged; it is never stored.
 */
final class ToolEvents {

    /** Argument fields that name what a tool acts on, kept when they are short text. */
    static final Set<String> NAMING = Set.of("connector_id", "op_id", "target", "handle_id", "work_ref");
    private static final int MAX_NAME_CHARS = 256;
    private static final java.util.regex.Pattern ARGUMENT_NAME = java.util.regex.Pattern.compile("[A-Za-z0-9_.-]{1,64}");

    private ToolEvents() {
    }

    /** The {@code tool_call} event of a call with {@code arguments} (the model's text, possibly not JSON). */
    static Map<String, Object> call(String tool, String arguments) {
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("tool", tool);
        String text = arguments == null ? "" : arguments;
        JsonNode args;
        try {
            args = text.isBlank() ? JsonMapping.mapper().createObjectNode() : JsonMapping.mapper().readTree(text);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            args = null;
        }
        if (args == null || !args.isObject()) {
            event.put("arguments_sha256", Digests.sha256Hex(text));
            event.put("arguments_chars", text.length());
            return event;
        }
        List<String> names = new ArrayList<>();
        args.fieldNames().forEachRemaining(name -> {
            if (ARGUMENT_NAME.matcher(name).matches()) {
                names.add(name);
            }
        });
        event.put("argument_names", names.size() <= 32 ? names : names.subList(0, 32));
        for (String field : NAMING) {
            JsonNode v = args.path(field);
            if (v.isTextual() && v.asText().length() <= MAX_NAME_CHARS) {
                event.put(field, v.asText());
            }
        }
        if (args.has("params")) {
            event.put("params_hash", paramsHash(args.get("params")));
        }
        event.put("arguments_sha256", Digests.sha256Hex(text));
        return event;
    }

    /** The hash the dispatcher puts on the call's audit row: sha256 of the params with sorted top-level keys. */
    static String paramsHash(JsonNode params) {
        if (!params.isObject()) {
            return Digests.sha256Hex(JsonMapping.write(params));
        }
        Map<String, Object> asSent = JsonMapping.mapper().convertValue(params,
                JsonMapping.mapper().getTypeFactory().constructMapType(LinkedHashMap.class, String.class, Object.class));
        Map<String, Object> sorted = new TreeMap<>(asSent);
        return Digests.sha256Hex(JsonMapping.write(sorted));
    }

    /** The {@code tool_result} event: the outcome of a call, never the text the tool answered. */
    static Map<String, Object> result(String tool, String status, Object result, String text) {
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("tool", tool);
        event.put("status", status);
        JsonNode tree = JsonMapping.mapper().valueToTree(result);
        JsonNode extras = tree.path("extras");
        text(extras.path("error_code")).or(() -> text(tree.path("error"))).ifPresent(c -> event.put("error_code", c));
        text(extras.path("audit_id")).ifPresent(id -> event.put("audit_id", id));
        text(extras.path("approval_request_id")).or(() -> text(tree.path("approval_request_id")))
                .ifPresent(id -> event.put("approval_request_id", id));
        event.put("result_chars", text.length());
        return event;
    }

    private static java.util.Optional<String> text(JsonNode v) {
        return v.isTextual() && v.asText().length() <= MAX_NAME_CHARS ? java.util.Optional.of(v.asText())
                : java.util.Optional.empty();
    }
}
