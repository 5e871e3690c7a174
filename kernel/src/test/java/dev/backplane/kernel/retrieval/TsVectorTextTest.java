package dev.backplane.kernel.retrieval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TsVectorTextTest {

    private static Map<String, Integer> parse(String text) {
        Map<String, Integer> out = new LinkedHashMap<>();
        TsVectorText.parse(text, out::put);
        return out;
    }

    @Test
    void termFrequencyIsTheNumberOfPositions() {
        assertThat(parse("'fast':3 'restart':1,5,9B 'postgr':2A")).containsExactly(Map.entry("fast", 1),
                Map.entry("restart", 3), Map.entry("postgr", 1));
    }

    @Test
    void lexemesWithoutPositionsCountOnce() {
        assertThat(parse("'a' 'b'")).containsExactly(Map.entry("a", 1), Map.entry("b", 1));
    }

    @Test
    void quotesAndBackslashesAreUnescaped() {
        assertThat(parse("'it''s':1 'back\\\\slash':2,3 'sp ace':4")).containsExactly(Map.entry("it's", 1),
                Map.entry("back\\slash", 2), Map.entry("sp ace", 1));
    }

    @Test
    void emptyAndGarbage() {
        assertThat(parse("")).isEmpty();
        assertThatThrownBy(() -> parse("fast:1")).isInstanceOf(IllegalArgumentException.class);
    }
}
