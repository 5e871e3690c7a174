package dev.backplane.kernel.sensors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.util.JsonMapping;
import org.junit.jupiter.api.Test;

/** Parsing limits and refusals that {@link AssertionTest} leaves out, each naming where the problem is. */
class AssertionParserTest {

    private static JsonNode json(String text) {
        try {
            return JsonMapping.mapper().readTree(text);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static void refused(String assertion, String at, String message) {
        assertThatThrownBy(() -> AssertionParser.parse(json(assertion))).isInstanceOf(DomainException.class)
                .satisfies(e -> {
                    assertThat(((DomainException) e).code()).isEqualTo("invalid_assertion");
                    assertThat(((DomainException) e).extras().get("at")).isEqualTo(at);
                    assertThat(((DomainException) e).extras().get("field")).isEqualTo("assertion");
                    assertThat(e.getMessage()).contains(message);
                });
    }

    private static String when(String condition) {
        return "{\"rules\": [{\"state\": \"ok\", \"when\": " + condition + "}]}";
    }

    @Test
    void eachOperatorTakesOnlyItsKindOfOperand() {
        refused(when("{\"path\": \"/a\", \"exists\": \"yes\"}"), "/rules/0/when/exists", "true or false");
        refused(when("{\"path\": \"/a\", \"in\": \"a\"}"), "/rules/0/when/in", "array");
        refused(when("{\"path\": \"/a\", \"eq\": [1]}"), "/rules/0/when/eq", "string, number, boolean or null");
        refused(when("{\"path\": \"/a\", \"contains\": {\"k\": \"" + "v".repeat(260) + "\"}}"),
                "/rules/0/when/contains", "at most 256");
        refused(when("{\"path\": \"/a\", \"match\": \"some\", \"eq\": 1}"), "/rules/0/when/match", "any or all");
        refused(when("{\"path\": \"/a\", \"measure\": \"size\", \"eq\": 1}"), "/rules/0/when/measure",
                "value, length or count");
        refused(when("{\"eq\": 1}"), "/rules/0/when/path", "JSON pointer");
        refused(when("{\"path\": \"/a\"}"), "/rules/0/when", "exactly one operator");
    }

    @Test
    void rulesAndTheirNamesHaveTheirShape() {
        refused("{\"rules\": [\"ok\"]}", "/rules/0", "must be an object");
        refused("{\"rules\": [{\"state\": \"ok\"}]}", "/rules/0/when", "must be an object");
        refused("{\"rules\": [{\"state\": \"ok\", \"when\": {\"path\": \"/a\", \"eq\": 1}, \"then\": 1}]}", "/rules/0",
                "unknown key 'then'");
        refused("{\"rules\": [{\"name\": \"" + "n".repeat(201) + "\", \"state\": \"ok\", \"when\": {\"path\": \"/a\", "
                + "\"eq\": 1}}]}", "/rules/0/name", "at most 200");
        refused("{\"rules\": [{\"state\": \"ok\", \"when\": {\"path\": \"/a\", \"eq\": 1}}], \"on_error\": \"OK\"}",
                "/on_error", "ok, degraded, critical, unknown, skip");
        refused("{\"rules\": [{\"state\": \"ok\", \"when\": {\"not\": {\"path\": \"/a\", \"eq\": 1}, \"x\": 1}}]}",
                "/rules/0/when", "unknown key 'x'");
    }

    @Test
    void theLimitsOnRulesConditionsAndPathsHold() {
        StringBuilder rules = new StringBuilder("{\"rules\": [");
        for (int i = 0; i <= Assertion.MAX_RULES; i++) {
            rules.append(i == 0 ? "" : ",").append("{\"state\": \"ok\", \"when\": {\"path\": \"\", \"eq\": 1}}");
        }
        refused(rules.append("]}").toString(), "/rules", "1..100 rules");
        // 500 conditions fit in 8 KiB only as chains of nots: an any of chains of 15 (14 nots around a leaf,
        // as deep as allowed); the any and 33 chains take 496, the fifth condition of the 34th is one too many
        String chain = "{\"not\": ".repeat(14) + "{\"path\": \"\", \"eq\": 1}" + "}".repeat(14);
        StringBuilder many = new StringBuilder("{\"any\": [").append(chain);
        for (int i = 1; i < 34; i++) {
            many.append(",").append(chain);
        }
        refused(when(many.append("]}").toString()), "/rules/0/when/any/33/not/not/not/not", "more than 500 conditions");
        AssertionParser.parse(json(when("{\"any\": [" + (chain + ",").repeat(32) + chain + "]}")));
        refused(when("{\"path\": \"" + "/a".repeat(Assertion.MAX_PATH_SEGMENTS + 1) + "\", \"eq\": 1}"),
                "/rules/0/when/path", "more than 32 segments");
        AssertionParser.parse(json(when("{\"path\": \"" + "/a".repeat(Assertion.MAX_PATH_SEGMENTS) + "\", \"eq\": 1}")));
    }

    @Test
    void theSourceIsACopyAndUnnamedRulesAreNumbered() {
        ObjectNode written = (ObjectNode) json("{\"rules\": [{\"state\": \"ok\", \"when\": {\"path\": \"/a\", \"eq\": 1}},"
                + "{\"state\": \"skip\", \"when\": {\"path\": \"/b\", \"exists\": true}}]}");
        Assertion a = AssertionParser.parse(written);
        written.put("default", "critical");
        assertThat(a.source().has("default")).isFalse();
        assertThat(a.evaluate(json("{\"b\": 1}")).detail()).isEqualTo("rule 2 matched");
        assertThat(a.evaluate(json("{}"))).isEqualTo(new Assertion.Verdict("ok", "no rule matched (default ok)"));
    }
}
