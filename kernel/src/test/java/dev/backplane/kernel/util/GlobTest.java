package dev.backplane.kernel.util;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GlobTest {

    @ParameterizedTest(name = "{0} ~ {1}: {2}")
    @CsvSource(delimiter = '|', textBlock = """
            k8s.pod.*      | k8s.pod.list  | true  |
            '*'            | ''            | true  |
            *.list         | k8s.pod.list  | true  |
            *.list         | k8s.pod.lists | false |
            a*b*c          | aXXbYYc       | true  |
            a*b*c          | aXXbYY        | false |
            k8s.po?.list   | k8s.pod.list  | true  |
            item[0-2].get  | item1.get     | true  |
            item[0-2].get  | item7.get     | false |
            item[!0-2].get | item7.get     | true  |
            [ab]x          | bx            | true  |
            (.*)           | anything      | false | regex syntax is literal
            a[bc           | a[bc          | true  | an unclosed class is literal
            """)
    void starsQuestionMarksAndClasses(String pattern, String text, boolean matches, String why) {
        assertThat(Glob.matches(pattern, text)).as("%s ~ %s %s", pattern, text, why == null ? "" : why).isEqualTo(matches);
    }

    @Test
    void brokenClassesNeverThrowAndMatchNothing() {
        for (String p : new String[] {"[]", "[z-a]", "[[]", "x[]y", "[-]"}) {
            assertThat(Glob.matches(p, "x")).as(p).isFalse();
        }
        assertThat(Glob.matches("[!]x", "ax")).as("an empty negated class matches any one character").isTrue();
    }

    @Test
    void manyStarsStayLinearInsteadOfBacktracking() {
        String pattern = "*e".repeat(40) + "*x";
        String text = "e".repeat(200);
        long t0 = System.nanoTime();
        assertThat(Glob.matches(pattern, text)).isFalse();
        assertThat((System.nanoTime() - t0) / 1_000_000).as("milliseconds").isLessThan(500);
    }
}
