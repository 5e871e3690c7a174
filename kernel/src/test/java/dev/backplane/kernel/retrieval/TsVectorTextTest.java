package dev.backplane.kernel.retrieval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class TsVectorTextTest {

    private static Map<String, Integer> parse(String text) {
        Map<String, Integer> out = new LinkedHashMap<>();
        TsVectorText.parse(text, out::put);
        return out;
    }

    static Stream<Arguments> vectors() {
        return Stream.of(
                Arguments.of("term frequency is the number of positions", "'fast':3 'restart':1,5,9B 'postgr':2A",
                        List.of(Map.entry("fast", 1), Map.entry("restart", 3), Map.entry("postgr", 1))),
                Arguments.of("lexemes without positions count once", "'a' 'b'",
                        List.of(Map.entry("a", 1), Map.entry("b", 1))),
                Arguments.of("quotes and backslashes are unescaped", "'it''s':1 'back\\\\slash':2,3 'sp ace':4",
                        List.of(Map.entry("it's", 1), Map.entry("back\\slash", 2), Map.entry("sp ace", 1))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("vectors")
    void lexemesAndTheirFrequenciesInOrder(String rule, String text, List<Map.Entry<String, Integer>> expected) {
        assertThat(parse(text).entrySet()).containsExactlyElementsOf(expected);
    }

    @Test
    void emptyAndGarbage() {
        assertThat(parse("")).isEmpty();
        assertThatThrownBy(() -> parse("fast:1")).isInstanceOf(IllegalArgumentException.class);
    }
}
