package dev.backplane.kernel.runbooks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.util.JsonMapping;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;

/**
 * What a person hands a run, checked: the template's inputs (declared ones only, defaults filled in,
 * required ones present), its target, a reason, a verification answer; and the {@code {{input.<name>}}}
 * placeholders of a step rendered with the run's inputs.
 */
final class RunbookInputs {

    private static final int MAX_INPUT = 1000;

    /** A verification answer on the current step. */
    enum Answer {
        YES, NO, ESCALATE;

        /** The name in a request, the log and audit. */
        String wire() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** The answer of a request: none when blank, {@code 422 invalid_run} when not yes, no or escalate. */
        static Optional<Answer> parse(String given) {
            if (given == null || given.isBlank()) {
                return Optional.empty();
            }
            for (Answer a : values()) {
                if (a.wire().equals(given)) {
                    return Optional.of(a);
                }
            }
            throw invalid("verify_response must be yes, no or escalate, got '" + given + "'", "verify_response");
        }
    }

    private RunbookInputs() {
    }

    /** The run's inputs: the given ones, each declared and well-formed, plus the defaults of those not given. */
    static Map<String, String> inputs(RunbookTemplate t, Map<String, String> given) {
        Set<String> declared = RunbookYaml.inputNames(t.definition());
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : given.entrySet()) {
            if (!declared.contains(e.getKey())) {
                throw invalid("runbook '" + t.slug() + "' has no input '" + e.getKey() + "' (declared: "
                        + declared.stream().sorted().toList() + ")", "inputs");
            }
            String v = e.getValue();
            if (v == null || v.length() > MAX_INPUT || v.chars().anyMatch(ch -> ch < 0x20 && ch != '\t')) {
                throw invalid("input '" + e.getKey() + "' must be up to " + MAX_INPUT + " characters without control "
                        + "characters", "inputs");
            }
            out.put(e.getKey(), v);
        }
        for (JsonNode input : t.definition().path("inputs")) {
            String name = input.path("name").asText();
            if (!out.containsKey(name)) {
                if (input.hasNonNull("default")) {
                    out.put(name, input.path("default").asText());
                } else if (input.path("required").asBoolean(true)) {
                    throw invalid("input '" + name + "' is required" + (input.has("description") ? " ("
                            + input.path("description").asText() + ")" : ""), "inputs");
                }
            }
        }
        return out;
    }

    /** The target named (blank is none); a template with an operation step cannot run without one. */
    static Optional<String> target(RunbookTemplate t, String given) {
        Optional<String> target = Optional.ofNullable(given).filter(v -> !v.isBlank());
        if (target.isEmpty()) {
            for (int i = 0; i < t.stepList().size(); i++) {
                if (t.stepList().get(i).has("operation")) {
                    throw invalid("target is required: step " + (i + 1) + " of '" + t.slug() + "' calls an operation",
                            "target");
                }
            }
        }
        return target;
    }

    /** {@code {{input.<name>}}} replaced by the run's value in every string of {@code node}. */
    static JsonNode render(JsonNode node, Map<String, String> inputs) {
        if (node.isMissingNode() || node.isNull()) {
            return JsonMapping.mapper().createObjectNode();
        }
        if (node.isTextual()) {
            return JsonMapping.mapper().getNodeFactory().textNode(renderText(node.asText(), inputs));
        }
        if (node.isObject()) {
            ObjectNode o = JsonMapping.mapper().createObjectNode();
            node.properties().forEach(e -> o.set(e.getKey(), render(e.getValue(), inputs)));
            return o;
        }
        if (node.isArray()) {
            ArrayNode a = JsonMapping.mapper().createArrayNode();
            node.forEach(v -> a.add(render(v, inputs)));
            return a;
        }
        return node;
    }

    static String renderText(String text, Map<String, String> inputs) {
        Matcher m = RunbookYaml.PLACEHOLDER.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(out, Matcher.quoteReplacement(inputs.getOrDefault(m.group(1), "")));
        }
        m.appendTail(out);
        return out.toString();
    }

    static void checkReason(String reason) {
        if (reason.length() > 1000 || reason.chars().anyMatch(ch -> ch < 0x20 && ch != '\t' && ch != '\n')) {
            throw invalid("reason must be up to 1000 characters without control characters", "reason");
        }
    }

    static DomainException invalid(String message, String field) {
        return RunbookErrors.INVALID_RUN.error(message, Map.of("field", field));
    }
}
