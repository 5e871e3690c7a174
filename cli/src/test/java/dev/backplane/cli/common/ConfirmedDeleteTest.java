package dev.backplane.cli.common;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.backplane.cli.Svc;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Every delete verb: nothing is sent without --confirm; with it, one DELETE on the named thing's route. */
class ConfirmedDeleteTest {

    @TempDir
    Path home;

    private HttpServer server;
    private final List<String> seen = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() throws Exception {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", x -> {
            seen.add(x.getRequestMethod() + " " + x.getRequestURI().getRawPath());
            x.sendResponseHeaders(204, -1);
            x.close();
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private String[] run(String... args) {
        Map<String, String> env = new HashMap<>(Map.of("XDG_CONFIG_HOME", home.toString(), "HOME",
                home.resolve("home").toString(), "SVC_TOKEN_STORE", "file", "SVC_TOKEN", "test-token",
                "SVC_INSECURE_ALLOW_HTTP", "1", "SVC_BACKPLANE", "http://127.0.0.1:" + server.getAddress().getPort()));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Svc.run(args, new PrintWriter(out, true), new PrintWriter(err, true),
                new ByteArrayInputStream(new byte[0]), env);
        return new String[] {String.valueOf(code), out.toString(), err.toString()};
    }

    @ParameterizedTest
    @CsvSource({
        "kb, delete, ops-notes, kb entry, /api/v1/kb/ops-notes",
        "targets, delete, prod-k8s, target, /api/v1/targets/prod-k8s",
        "conventions, delete, no-friday, convention, /api/v1/conventions/no-friday",
        "agent, delete, triage, agent definition, /api/v1/agents/triage"})
    void deletesOnlyWithConfirm(String noun, String verb, String key, String what, String route) {
        String[] refused = run(noun, verb, key);
        assertThat(refused[0]).as(refused[2]).isEqualTo(String.valueOf(ExitCodes.USAGE));
        assertThat(refused[2]).contains("delete " + what + " " + key + ": ").contains("re-run with --confirm");
        assertThat(seen).as("nothing sent without --confirm").isEmpty();

        String[] done = run(noun, verb, key, "--confirm");
        assertThat(done[0]).as(done[2]).isEqualTo("0");
        assertThat(done[1]).contains("deleted " + what + " " + key);
        assertThat(seen).containsExactly("DELETE " + route);
    }
}
