package dev.backplane.kernel.runbooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.runbooks.RunbookInputs.Answer;
import dev.backplane.kernel.util.JsonMapping;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * What a caller hands a run, without a database: declared inputs only, defaults filled in, required ones
 * present, no control characters; reasons; verification answers; placeholders rendered with the inputs.
 */
class RunbookInputsTest {

    private static final RunbookTemplate RESTART = template("""
            title: Restart
            inputs:
              - name: item
                description: the stuck item
              - name: count
                required: false
                default: "2"
              - name: note
                required: false
            steps:
              - instruction: Restart {{input.item}} ({{input.count}} times).
                verify: Is {{input.item}} up?
            """);

    @Test
    void givenInputsAreKeptAndDefaultsFilledIn() {
        assertThat(RunbookInputs.inputs(RESTART, Map.of("item", "web-1"))).containsExactly(Map.entry("item", "web-1"),
                Map.entry("count", "2"));
        assertThat(RunbookInputs.inputs(RESTART, ordered("item", "web-1", "count", "5", "note", "tab\there")))
                .containsExactly(Map.entry("item", "web-1"), Map.entry("count", "5"), Map.entry("note", "tab\there"));
    }

    @Test
    void anUndeclaredMissingOrMalformedInputIsRefusedNamingTheField() {
        assertInvalid(() -> RunbookInputs.inputs(RESTART, Map.of("item", "a", "itme", "b")), "inputs",
                "has no input 'itme' (declared: [count, item, note])");
        assertInvalid(() -> RunbookInputs.inputs(RESTART, Map.of("count", "3")), "inputs",
                "input 'item' is required (the stuck item)");
        assertInvalid(() -> RunbookInputs.inputs(RESTART, Map.of("item", "a\nb")), "inputs", "without control");
        assertInvalid(() -> RunbookInputs.inputs(RESTART, Map.of("item", "x".repeat(1001))), "inputs",
                "up to 1000 characters");
        assertThat(RunbookInputs.inputs(RESTART, Map.of("item", "x".repeat(1000)))).containsKey("item");
    }

    @Test
    void aTargetIsRequiredOnlyWhenAStepCallsAnOperation() {
        assertThat(RunbookInputs.target(RESTART, null)).isEmpty();
        assertThat(RunbookInputs.target(RESTART, " ")).isEmpty();
        RunbookTemplate calls = template("""
                title: Look
                steps:
                  - instruction: Read the notes.
                    verify: Read?
                  - instruction: List the items.
                    operation: {connector_id: rb-1.x, op_id: rb.item0.list}
                    verify: Listed?
                """);
        assertThat(RunbookInputs.target(calls, "web-1")).contains("web-1");
        assertInvalid(() -> RunbookInputs.target(calls, ""), "target",
                "target is required: step 2 of 'restart' calls an operation");
    }

    @Test
    void placeholdersAreRenderedInEveryStringAndUnknownOnesAreEmptied() {
        Map<String, String> inputs = Map.of("item", "web-1", "count", "$2\\");
        assertThat(RunbookInputs.renderText("Restart {{input.item}} ({{ input.count }} times){{input.other}}.",
                inputs)).isEqualTo("Restart web-1 ($2\\ times).");
        JsonNode params = JsonMapping.mapper().valueToTree(Map.of("name", "{{input.item}}", "list",
                List.of("{{input.count}}", 3), "nested", Map.of("n", true)));
        JsonNode rendered = RunbookInputs.render(params, inputs);
        assertThat(rendered.path("name").asText()).isEqualTo("web-1");
        assertThat(rendered.path("list").get(0).asText()).isEqualTo("$2\\");
        assertThat(rendered.path("list").get(1).asInt()).isEqualTo(3);
        assertThat(rendered.path("nested").path("n").asBoolean()).isTrue();
        assertThat(RunbookInputs.render(JsonMapping.mapper().missingNode(), inputs).isObject()).isTrue();
    }

    @Test
    void answersAreYesNoOrEscalateAndBlankIsNone() {
        assertThat(Answer.parse("yes")).contains(Answer.YES);
        assertThat(Answer.parse("no")).contains(Answer.NO);
        assertThat(Answer.parse("escalate")).contains(Answer.ESCALATE);
        assertThat(Answer.parse(null)).isEmpty();
        assertThat(Answer.parse("  ")).isEmpty();
        assertInvalid(() -> Answer.parse("YES"), "verify_response", "got 'YES'");
        assertInvalid(() -> Answer.parse("maybe"), "verify_response", "must be yes, no or escalate");
    }

    @Test
    void aReasonIsShortAndFreeOfControlCharactersButMaySpanLines() {
        RunbookInputs.checkReason("two\nlines\tand a tab");
        RunbookInputs.checkReason("r".repeat(1000));
        assertInvalid(() -> RunbookInputs.checkReason("r".repeat(1001)), "reason", "up to 1000 characters");
        assertInvalid(() -> RunbookInputs.checkReason("bell\u0007"), "reason", "without control characters");
    }

    private static void assertInvalid(Executable call, String field, String message) {
        Throwable t = catchThrowable(call::execute);
        assertThat(t).isInstanceOf(DomainException.class).hasMessageContaining(message);
        DomainException e = (DomainException) t;
        assertThat(e.code()).isEqualTo("invalid_run");
        assertThat(e.extras()).containsEntry("field", field);
    }

    private static Map<String, String> ordered(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    private static RunbookTemplate template(String yaml) {
        JsonNode definition = RunbookYaml.parse(yaml);
        return new RunbookTemplate("restart", 1, RunbookTemplate.PUBLISHED, definition.path("title").asText(),
                Optional.empty(), definition.path("steps").size(), yaml, definition, "author", Instant.EPOCH, "author",
                Instant.EPOCH, Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());
    }
}
