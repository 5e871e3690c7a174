package dev.backplane.kernel.sensors;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.util.JsonMapping;
import org.junit.jupiter.api.Test;

/** Evaluation cases that {@link AssertionTest} leaves out: orderings, indexes, measures and contains on objects. */
class ConditionTest {

    private static JsonNode json(String text) {
        try {
            return JsonMapping.mapper().readTree(text);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** Whether the condition holds on the result (the rule gives critical, the default ok). */
    private static boolean holds(String condition, String result) {
        String state = Assertion.parse(json("{\"rules\": [{\"state\": \"critical\", \"when\": " + condition + "}]}"))
                .evaluate(json(result)).state();
        assertThat(state).isIn("critical", "ok");
        return state.equals("critical");
    }

    @Test
    void stringsOrderByTextAndMixedTypesNeverOrder() {
        assertThat(holds("{\"path\": \"/v\", \"gt\": \"a\"}", "{\"v\": \"b\"}")).isTrue();
        assertThat(holds("{\"path\": \"/v\", \"le\": \"a\"}", "{\"v\": \"b\"}")).isFalse();
        assertThat(holds("{\"path\": \"/v\", \"gt\": 1}", "{\"v\": \"5\"}")).isFalse();
        assertThat(holds("{\"path\": \"/v\", \"lt\": \"5\"}", "{\"v\": 1}")).isFalse();
        assertThat(holds("{\"path\": \"/v\", \"ge\": 2}", "{\"v\": 2}")).isTrue();
        assertThat(holds("{\"path\": \"/v\", \"lt\": 2}", "{\"v\": 2}")).isFalse();
    }

    @Test
    void numbersAreEqualByValueWhateverTheirJsonForm() {
        assertThat(holds("{\"path\": \"/v\", \"eq\": 1}", "{\"v\": 1.0}")).isTrue();
        assertThat(holds("{\"path\": \"/v\", \"in\": [2, 1e0]}", "{\"v\": 1}")).isTrue();
        assertThat(holds("{\"path\": \"/v\", \"eq\": \"1\"}", "{\"v\": 1}")).isFalse();
        assertThat(holds("{\"path\": \"/v\", \"ne\": 1}", "{\"v\": 1.00}")).isFalse();
    }

    @Test
    void containsOnAnObjectIsASubsetMatch() {
        String result = "{\"labels\": {\"env\": \"prod\", \"tier\": 1}}";
        assertThat(holds("{\"path\": \"/labels\", \"contains\": {\"env\": \"prod\"}}", result)).isTrue();
        assertThat(holds("{\"path\": \"/labels\", \"contains\": {\"env\": \"prod\", \"tier\": 1.0}}", result)).isTrue();
        assertThat(holds("{\"path\": \"/labels\", \"contains\": {\"env\": \"lab\"}}", result)).isFalse();
        assertThat(holds("{\"path\": \"/labels\", \"contains\": {\"zone\": \"a\"}}", result)).isFalse();
        assertThat(holds("{\"path\": \"/labels/tier\", \"contains\": 1}", result)).isFalse();
    }

    @Test
    void indexesSelectArrayElementsAndWildcardsSelectNothingFromAScalar() {
        String result = "{\"items\": [\"a\", \"b\"], \"n\": 3}";
        assertThat(holds("{\"path\": \"/items/1\", \"eq\": \"b\"}", result)).isTrue();
        assertThat(holds("{\"path\": \"/items/2\", \"exists\": true}", result)).isFalse();
        assertThat(holds("{\"path\": \"/items/-1\", \"exists\": true}", result)).isFalse();
        assertThat(holds("{\"path\": \"/items/x\", \"exists\": true}", result)).isFalse();
        assertThat(holds("{\"path\": \"/n/*\", \"exists\": true}", result)).isFalse();
        assertThat(holds("{\"path\": \"/items/*\", \"measure\": \"count\", \"eq\": 2}", result)).isTrue();
    }

    @Test
    void measuresCountNothingAsZeroAndLengthSkipsScalars() {
        assertThat(holds("{\"path\": \"/missing/*\", \"measure\": \"count\", \"eq\": 0}", "{}")).isTrue();
        assertThat(holds("{\"path\": \"/s\", \"measure\": \"length\", \"ge\": 5}", "{\"s\": \"hello\"}")).isTrue();
        assertThat(holds("{\"path\": \"/o\", \"measure\": \"length\", \"eq\": 2}", "{\"o\": {\"a\": 1, \"b\": 2}}"))
                .isTrue();
        // a number has no length: the test fails for it, and with match all one such value fails the whole test
        assertThat(holds("{\"path\": \"/n\", \"measure\": \"length\", \"ge\": 0}", "{\"n\": 12345}")).isFalse();
        assertThat(holds("{\"path\": \"/v/*\", \"match\": \"all\", \"measure\": \"length\", \"ge\": 1}",
                "{\"v\": [\"a\", 7]}")).isFalse();
        assertThat(holds("{\"path\": \"/v/*\", \"match\": \"all\", \"measure\": \"length\", \"ge\": 1}",
                "{\"v\": [\"a\", [0]]}")).isTrue();
    }
}
