package dev.backplane.kernel.util;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class GlobTest {

    @Test
    void starsQuestionMarksAndClasses() {
        assertThat(Glob.matches("k8s.pod.*", "k8s.pod.list")).isTrue();
        assertThat(Glob.matches("*", "")).isTrue();
        assertThat(Glob.matches("*.list", "k8s.pod.list")).isTrue();
        assertThat(Glob.matches("*.list", "k8s.pod.lists")).isFalse();
        assertThat(Glob.matches("a*b*c", "aXXbYYc")).isTrue();
        assertThat(Glob.matches("a*b*c", "aXXbYY")).isFalse();
        assertThat(Glob.matches("k8s.po?.list", "k8s.pod.list")).isTrue();
        assertThat(Glob.matches("item[0-2].get", "item1.get")).isTrue();
        assertThat(Glob.matches("item[0-2].get", "item7.get")).isFalse();
        assertThat(Glob.matches("item[!0-2].get", "item7.get")).isTrue();
        assertThat(Glob.matches("[ab]x", "bx")).isTrue();
        assertThat(Glob.matches("(.*)", "anything")).as("regex syntax is literal").isFalse();
        assertThat(Glob.matches("a[bc", "a[bc")).as("an unclosed class is literal").isTrue();
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
