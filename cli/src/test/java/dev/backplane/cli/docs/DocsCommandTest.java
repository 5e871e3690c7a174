package dev.backplane.cli.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.backplane.cli.Svc;
import dev.backplane.cli.common.ExitCodes;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Usage errors of {@code svc docs}: caught before anything is sent (the backplane URL is closed). */
class DocsCommandTest {

    @TempDir
    Path xdg;

    private String[] run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        String[] all = new String[args.length + 2];
        System.arraycopy(args, 0, all, 0, args.length);
        all[args.length] = "--backplane";
        all[args.length + 1] = "http://127.0.0.1:1";
        int code = Svc.run(all, new PrintWriter(out, true), new PrintWriter(err, true),
                new ByteArrayInputStream(new byte[0]), Map.of("XDG_CONFIG_HOME", xdg.toString(), "HOME",
                        xdg.toString(), "SVC_TOKEN_STORE", "file", "SVC_TOKEN", "t"));
        return new String[] {String.valueOf(code), err.toString()};
    }

    private void assertUsage(String expected, String... args) {
        String[] r = run(args);
        assertThat(Integer.parseInt(r[0])).as(r[1]).isEqualTo(ExitCodes.USAGE);
        assertThat(r[1]).contains(expected);
    }

    @Test
    void queriesNeedACollectionAndALimitInRange() {
        assertUsage("--collection", "docs", "search", "failover");
        assertUsage("--collection", "docs", "ask", "failover");
        assertUsage("--limit must be 1..50", "docs", "search", "failover", "--collection", "pg", "--limit", "51");
        assertUsage("--limit must be 1..50", "docs", "search", "failover", "--collection", "pg", "--limit", "0");
        assertUsage("query is empty", "docs", "ask", " ", "--collection", "pg");
    }

    @Test
    void collectionVerbsCheckTheirArguments() throws Exception {
        assertUsage("--backend-type", "docs", "collections", "create", "pg");
        assertUsage("--backend-ref is not JSON", "docs", "collections", "create", "pg", "--backend-type",
                "corpus-http", "--backend-ref", "{url");
        assertUsage("must be a JSON object", "docs", "collections", "create", "pg", "--backend-type", "corpus-http",
                "--backend-ref", "[1]");
        Path file = xdg.resolve("c.yaml");
        Files.writeString(file, "backend_type: corpus-http\ntoken: x\n");
        assertUsage("unknown field 'token'", "docs", "collections", "create", "pg", "--from-file", file.toString());
        assertUsage("nothing to update", "docs", "collections", "update", "pg");
        assertUsage("--tenant", "docs", "collections", "grant", "pg");
        assertUsage("--limit must be 1..500", "docs", "collections", "list", "--limit", "501");
    }
}
