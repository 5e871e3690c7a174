package dev.backplane.kernel.events;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.backplane.kernel.util.JsonMapping;
import org.junit.jupiter.api.Test;

/** The canonical text delivery ids hash: sorted keys, no whitespace, JSON escapes. */
class CanonicalJsonTest {

    private static JsonNode parse(String text) {
        return JsonMapping.tree(text, "the test's JSON");
    }

    @Test
    void keysSortedAtEveryLevelArraysInOrder() {
        assertThat(CanonicalJson.of(parse("""
                { "b": [3, {"z": null, "y": true}], "a": {"d": "x", "c": 1.5} }""")))
                .isEqualTo("{\"a\":{\"c\":1.5,\"d\":\"x\"},\"b\":[3,{\"y\":true,\"z\":null}]}");
        assertThat(CanonicalJson.of(parse("{\"a\": 1, \"b\": 2}")))
                .isEqualTo(CanonicalJson.of(parse("{\"b\": 2, \"a\": 1}")));
        assertThat(CanonicalJson.of(parse("[2, 1]"))).isNotEqualTo(CanonicalJson.of(parse("[1, 2]")));
    }

    @Test
    void stringsAreEscapedSoNoValueCanForgeStructure() {
        assertThat(CanonicalJson.of(parse("{\"k\\\"\": \"a\\\\b\\n\\u0001\"}")))
                .isEqualTo("{\"k\\\"\":\"a\\\\b\\u000a\\u0001\"}");
        // a key holding ":" text and a value holding "," stay distinguishable from real structure
        assertThat(CanonicalJson.of(parse("{\"a\": \"1,\\\"b\\\":2\"}")))
                .isNotEqualTo(CanonicalJson.of(parse("{\"a\": \"1\", \"b\": 2}")));
    }

    @Test
    void absentValuesAreNull() {
        assertThat(CanonicalJson.of(null)).isEqualTo("null");
        assertThat(CanonicalJson.of(MissingNode.getInstance())).isEqualTo("null");
        assertThat(CanonicalJson.of(parse("{}"))).isEqualTo("{}");
        assertThat(CanonicalJson.of(parse("[]"))).isEqualTo("[]");
    }
}
