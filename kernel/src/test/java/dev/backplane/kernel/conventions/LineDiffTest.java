package dev.backplane.kernel.conventions;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class LineDiffTest {

    @Test
    void sameTextsHaveNoDiff() {
        assertThat(LineDiff.unified("a\nb", "a\nb\n", "x", "y")).isEmpty();
    }

    @Test
    void aChangedLineIsRemovedThenAddedWithContext() {
        String before = "one\ntwo\nthree\nfour\nfive";
        String after = "one\ntwo\nTHREE\nfour\nfive\nsix";
        assertThat(LineDiff.unified(before, after, "a", "b")).isEqualTo("""
                --- a
                +++ b
                @@ -1,5 +1,6 @@
                 one
                 two
                -three
                +THREE
                 four
                 five
                +six
                """);
    }

    @Test
    void creationIsAllAdded() {
        assertThat(LineDiff.unified("", "x\ny", "/dev/null", "b")).isEqualTo("--- /dev/null\n+++ b\n@@ -0,0 +1,2 @@\n+x\n+y\n");
    }

    @Test
    void distantChangesAreSeparateHunks() {
        String before = IntStream.rangeClosed(1, 30).mapToObj(i -> "line " + i).collect(Collectors.joining("\n"));
        String after = before.replace("line 2\n", "line two\n").replace("line 28\n", "line twenty-eight\n");
        String diff = LineDiff.unified(before, after, "a", "b");
        assertThat(diff).contains("@@ -1,5 +1,5 @@").contains("@@ -25,6 +25,6 @@").contains("-line 2\n+line two\n")
                .contains("-line 28\n+line twenty-eight\n").doesNotContain(" line 15\n");
    }
}
