package dev.backplane.cli.common;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TablesTest {

    private static final List<String> HEADER = List.of("NAME", "PRODUCT", "ADDRESS", "ALIASES");
    private static final List<List<String>> ROWS = List.of(
            List.of("db-1", "demo", "127.0.0.2:443", ""),
            List.of("edge-gateway-frankfurt-rack-14-primary", "demo", "127.0.0.1:443",
                    "fra-edge-1,fra-edge-2,fra-edge-3,fra-edge-4,fra-edge-5,fra-edge-6,fra-edge-7"));

    private static String print(Terminal terminal) {
        StringWriter out = new StringWriter();
        CliContext ctx = new CliContext(new PrintWriter(out, true), new PrintWriter(new StringWriter()),
                new ByteArrayInputStream(new byte[0]), Map.of(), terminal);
        Tables.print(ctx, HEADER, ROWS);
        return out.toString();
    }

    @Test
    void aPipeGetsEveryCellWhole() {
        String out = print(Terminal.PIPE);
        assertThat(out).contains("fra-edge-7").doesNotContain("\u2026");
        assertThat(out.lines().mapToInt(String::length).max().orElseThrow()).isGreaterThan(80);
    }

    @Test
    void aTerminalNarrowsTheWidestColumnsAndCutsWithAnEllipsis() {
        String out = print(new Terminal(80));
        List<String> lines = out.lines().toList();
        assertThat(lines).hasSize(3).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(80));
        assertThat(lines.get(1)).as("narrow columns keep their width").contains("db-1").contains("127.0.0.2:443");
        assertThat(lines.get(2)).contains("\u2026").startsWith("edge-gateway-frankfurt");
        assertThat(lines.getFirst()).startsWith("NAME").contains("PRODUCT").contains("ADDRESS").contains("ALIASES");
    }

    @Test
    void aTableThatFitsIsUnchanged() {
        assertThat(print(new Terminal(400))).isEqualTo(print(Terminal.PIPE));
    }

    @Test
    void fitSharesWhatIsLeftAmongTheWideColumns() {
        int[] w = Tables.fit(new int[] {10, 100, 100}, List.of("A", "B", "C"), 80);
        assertThat(w[0]).isEqualTo(10);
        assertThat(w[0] + w[1] + w[2] + 4).isEqualTo(80);
        assertThat(Math.abs(w[1] - w[2])).isLessThanOrEqualTo(1);
        assertThat(Tables.cut("abcdef", 4)).isEqualTo("abc\u2026");
        assertThat(Tables.cut("abc", 4)).isEqualTo("abc");
    }
}
