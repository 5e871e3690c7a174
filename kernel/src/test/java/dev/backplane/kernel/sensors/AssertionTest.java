package dev.backplane.kernel.sensors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.util.JsonMapping;
import org.junit.jupiter.api.Test;

/** The assertion language: what each construct means, and that bad or hostile assertions are refused or bounded. */
class AssertionTest {

    private static JsonNode json(String text) {
        try {
            return JsonMapping.mapper().readTree(text);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static String state(String assertion, String result) {
        return Assertion.parse(json(assertion)).evaluate(json(result)).state();
    }

    private static void refused(String assertion, String at) {
        assertThatThrownBy(() -> Assertion.parse(json(assertion))).isInstanceOf(DomainException.class)
                .satisfies(e -> {
                    assertThat(((DomainException) e).code()).isEqualTo("invalid_assertion");
                    assertThat(((DomainException) e).extras().get("at")).isEqualTo(at);
                });
    }

    @Test
    void rulesAreTriedInOrderAndTheDefaultAppliesOtherwise() {
        String a = """
                {"rules": [{"name": "down", "state": "critical", "when": {"path": "/status", "eq": "down"}},
                           {"state": "degraded", "when": {"path": "/latency_ms", "gt": 500}}],
                 "default": "ok"}""";
        assertThat(state(a, "{\"status\": \"down\", \"latency_ms\": 900}")).isEqualTo("critical");
        assertThat(state(a, "{\"status\": \"up\", \"latency_ms\": 900}")).isEqualTo("degraded");
        assertThat(state(a, "{\"status\": \"up\", \"latency_ms\": 500.0}")).isEqualTo("ok");
        Assertion.Verdict v = Assertion.parse(json(a)).evaluate(json("{\"status\": \"down\"}"));
        assertThat(v.detail()).isEqualTo("down matched");
        assertThat(Assertion.parse(json(a)).evaluate(json("{}")).detail()).contains("no rule matched");
        assertThat(Assertion.parse(json(a)).onError()).isEqualTo("critical");
        assertThat(Assertion.parse(json("{\"rules\": [{\"state\": \"ok\", \"when\": {\"path\": \"\", \"exists\": true}}], "
                + "\"on_error\": \"unknown\"}")).onError()).isEqualTo("unknown");
    }

    @Test
    void wildcardsMatchAnyOrAllAndMeasuresCountAndLength() {
        String rows = "{\"rows\": [{\"phase\": \"Running\", \"tags\": [\"a\", \"b\"]}, {\"phase\": \"Failed\", \"tags\": []}]}";
        assertThat(state("{\"rules\": [{\"state\": \"critical\", \"when\": {\"path\": \"/rows/*/phase\", \"eq\": \"Failed\"}}]}",
                rows)).isEqualTo("critical");
        assertThat(state("{\"rules\": [{\"state\": \"critical\", \"when\": {\"path\": \"/rows/*/phase\", \"match\": \"all\", "
                + "\"eq\": \"Failed\"}}]}", rows)).isEqualTo("ok");
        assertThat(state("{\"rules\": [{\"state\": \"degraded\", \"when\": {\"path\": \"/rows/*\", \"measure\": \"count\", "
                + "\"ge\": 2}}]}", rows)).isEqualTo("degraded");
        assertThat(state("{\"rules\": [{\"state\": \"degraded\", \"when\": {\"path\": \"/rows/*/tags\", \"measure\": \"length\", "
                + "\"eq\": 0}}]}", rows)).isEqualTo("degraded");
        assertThat(state("{\"rules\": [{\"state\": \"skip\", \"when\": {\"path\": \"/rows/0/tags\", \"contains\": \"b\"}}]}",
                rows)).isEqualTo("skip");
        assertThat(state("{\"rules\": [{\"state\": \"skip\", \"when\": {\"path\": \"/rows/1/phase\", \"in\": [\"Failed\", "
                + "\"Unknown\"]}}]}", rows)).isEqualTo("skip");
    }

    @Test
    void aPathThatSelectsNothingFailsEveryTestButExistsFalse() {
        assertThat(state("{\"rules\": [{\"state\": \"critical\", \"when\": {\"path\": \"/nope\", \"ne\": 1}}]}", "{}"))
                .isEqualTo("ok");
        assertThat(state("{\"rules\": [{\"state\": \"critical\", \"when\": {\"path\": \"/nope\", \"match\": \"all\", "
                + "\"eq\": 1}}]}", "{}")).isEqualTo("ok");
        assertThat(state("{\"rules\": [{\"state\": \"critical\", \"when\": {\"path\": \"/nope\", \"exists\": false}}]}", "{}"))
                .isEqualTo("critical");
        assertThat(state("{\"rules\": [{\"state\": \"critical\", \"when\": {\"path\": \"/a~1b\", \"exists\": true}}]}",
                "{\"a/b\": 1}")).isEqualTo("critical");
    }

    @Test
    void allAnyAndNotCombine() {
        String a = """
                {"rules": [{"state": "critical", "when": {"all": [{"path": "/up", "eq": false},
                           {"not": {"any": [{"path": "/maintenance", "eq": true}, {"path": "/env", "eq": "lab"}]}}]}}]}""";
        assertThat(state(a, "{\"up\": false, \"maintenance\": false, \"env\": \"prod\"}")).isEqualTo("critical");
        assertThat(state(a, "{\"up\": false, \"maintenance\": true}")).isEqualTo("ok");
        assertThat(state(a, "{\"up\": false, \"env\": \"lab\"}")).isEqualTo("ok");
        assertThat(state(a, "{\"up\": true}")).isEqualTo("ok");
    }

    @Test
    void badAssertionsAreRefusedWithWhereTheProblemIs() {
        refused("[]", "");
        refused("{\"rules\": []}", "/rules");
        refused("{\"rules\": [{\"state\": \"fine\", \"when\": {\"path\": \"/a\", \"eq\": 1}}]}", "/rules/0/state");
        refused("{\"rules\": [{\"state\": \"ok\", \"when\": {\"path\": \"/a\", \"matches\": \".*\"}}]}", "/rules/0/when");
        refused("{\"rules\": [{\"state\": \"ok\", \"when\": {\"path\": \"a\", \"eq\": 1}}]}", "/rules/0/when/path");
        refused("{\"rules\": [{\"state\": \"ok\", \"when\": {\"path\": \"/a\", \"eq\": 1, \"ne\": 2}}]}", "/rules/0/when");
        refused("{\"rules\": [{\"state\": \"ok\", \"when\": {\"path\": \"/a\", \"gt\": true}}]}", "/rules/0/when/gt");
        refused("{\"rules\": [{\"state\": \"ok\", \"when\": {\"path\": \"/a\", \"measure\": \"count\", \"eq\": \"x\"}}]}",
                "/rules/0/when/eq");
        refused("{\"rules\": [{\"state\": \"ok\", \"when\": {\"all\": []}}]}", "/rules/0/when/all");
        refused("{\"rules\": [{\"state\": \"ok\", \"when\": {\"path\": \"/a\", \"eq\": 1}}], \"script\": \"x\"}", "");
        refused("{\"rules\": [{\"state\": \"ok\", \"when\": {\"path\": \"/a\", \"eq\": 1}}], \"default\": \"green\"}",
                "/default");
        StringBuilder deep = new StringBuilder();
        for (int i = 0; i < 20; i++) {
            deep.append("{\"not\": ");
        }
        deep.append("{\"path\": \"/a\", \"eq\": 1}").append("}".repeat(20));
        assertThatThrownBy(() -> Assertion.parse(json("{\"rules\": [{\"state\": \"ok\", \"when\": " + deep + "}]}")))
                .hasMessageContaining("deeper than");
        String big = "{\"rules\": [{\"state\": \"ok\", \"when\": {\"path\": \"/a\", \"eq\": \"" + "x".repeat(9000) + "\"}}]}";
        assertThatThrownBy(() -> Assertion.parse(json(big))).hasMessageContaining("larger than 8192");
        refused("null", "");
    }

    @Test
    void anEvaluationOverAHugeResultStopsAtItsBudgetAsUnknown() {
        ArrayNode rows = JsonMapping.mapper().createArrayNode();
        for (int i = 0; i < 300_000; i++) {
            rows.add(i);
        }
        JsonNode result = JsonMapping.mapper().createObjectNode().set("rows", rows);
        Assertion.Verdict v = Assertion.parse(json("{\"rules\": [{\"state\": \"critical\", \"when\": {\"path\": \"/rows/*\", "
                + "\"lt\": 0}}]}")).evaluate(result);
        assertThat(v.state()).isEqualTo("unknown");
        assertThat(v.detail()).contains("budget");
    }

    @Test
    void aNonFiniteNumberInAResultMatchesNothingInsteadOfThrowing() {
        for (double bad : new double[] {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY}) {
            JsonNode result = JsonMapping.mapper().createObjectNode().put("v", bad)
                    .set("a", JsonMapping.mapper().createArrayNode().add(bad));
            for (String when : new String[] {"\"path\": \"/v\", \"eq\": 1", "\"path\": \"/v\", \"gt\": 0",
                    "\"path\": \"/v\", \"lt\": 0", "\"path\": \"/v\", \"ne\": 1", "\"path\": \"/a\", \"contains\": 1"}) {
                Assertion a = Assertion.parse(json("{\"rules\": [{\"state\": \"critical\", \"when\": {" + when
                        + "}}], \"default\": \"ok\"}"));
                Assertion.Verdict v = a.evaluate(result);
                assertThat(v.state()).as("%s on %s", when, bad).isIn("ok", "critical");
                if (!when.contains("\"ne\"")) {
                    assertThat(v.state()).as("%s on %s", when, bad).isEqualTo("ok");
                }
            }
        }
    }

    @Test
    void containsOperandsAreCappedAndLongValuesCostWhatScanningThemCosts() {
        refused("{\"rules\": [{\"state\": \"ok\", \"when\": {\"path\": \"/a\", \"contains\": \"" + "y".repeat(257)
                + "\"}}]}", "/rules/0/when/contains");
        assertThat(state("{\"rules\": [{\"state\": \"critical\", \"when\": {\"path\": \"/a\", \"contains\": \""
                + "y".repeat(256) + "\"}}]}", "{\"a\": \"" + "y".repeat(300) + "\"}")).isEqualTo("critical");
        // 3,000 values of 10,000 characters each: scanning them all is far over the step budget
        ArrayNode rows = JsonMapping.mapper().createArrayNode();
        String big = "x".repeat(10_000);
        for (int i = 0; i < 3_000; i++) {
            rows.add(big);
        }
        Assertion.Verdict v = Assertion.parse(json("{\"rules\": [{\"state\": \"critical\", \"when\": {\"path\": "
                + "\"/rows/*\", \"contains\": \"DOWN\"}}]}")).evaluate(JsonMapping.mapper().createObjectNode().set("rows", rows));
        assertThat(v.state()).isEqualTo("unknown");
        assertThat(v.detail()).contains("budget");
    }
}
