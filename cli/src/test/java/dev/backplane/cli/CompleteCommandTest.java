package dev.backplane.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.backplane.cli.LoopbackBackplane.Result;
import dev.backplane.cli.common.ExitCodes;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code svc __complete <kind> [<prefix>]}: names from the backplane's answers, quietly nothing when it cannot
 * answer, and a short cache.
 */
class CompleteCommandTest {

    static final String TARGETS = """
            {"targets": [{"name": "web-1", "product": "k8s", "aliases": ["front"]},
                         {"name": "web-2", "product": "k8s", "aliases": []},
                         {"name": "db-1", "product": "postgres", "aliases": []}], "next_cursor": null}
            """;
    static final String CONNECTORS = """
            [{"connector_id": "k8s@1.0", "status": "enabled"}, {"connector_id": "argocd@2.0", "status": "staged"},
             {"connector_id": "", "status": "broken", "plugin_file": "bad.jar"},
             {"connector_id": "gitlab/17", "status": "not_ingested"}]
            """;
    static final String CATALOG = """
            {"revision": 3, "connectors": [
              {"connector_id": "k8s@1.0", "impl_id": "k8s", "version": "1.0",
               "operations": [{"op_id": "k8s.pod.list"}, {"op_id": "k8s.pod.logs"}]},
              {"connector_id": "k8s@0.9", "impl_id": "k8s", "version": "0.9", "operations": [{"op_id": "k8s.pod.list"}]},
              {"connector_id": "argocd@2.0", "impl_id": "argocd", "version": "2.0",
               "operations": [{"op_id": "argocd.app.sync"}]}]}
            """;
    static final String APPROVALS = """
            [{"id": "0b7c6a52-8d0e-4f57-9a39-5d1f3f0f6a01", "status": "pending", "op_id": "k8s.deployment.restart"},
             {"id": "5e0c1d3a-1111-4c8b-8f0e-2d6c9a7b0c02", "status": "pending", "op_id": "k8s.pod.delete"}]
            """;
    static final String AGENTS = """
            {"agents": [{"name": "triage", "enabled": true}, {"name": "tidy-up", "enabled": false}]}
            """;
    static final String TEMPLATES = """
            {"templates": [{"slug": "restart-web", "version": 2}, {"slug": "restart-web", "version": 1},
                           {"slug": "rotate-certs", "version": 1}]}
            """;
    static final String EVENT_SOURCES = """
            {"event_sources": [{"name": "Alertmanager", "slug": "alertmanager"}, {"name": "Harbor", "slug": "harbor"}]}
            """;

    @RegisterExtension
    final LoopbackBackplane backplane = new LoopbackBackplane()
            .answer("/api/v1/targets", TARGETS)
            .answer("/api/v1/connectors", CONNECTORS)
            .answer("/api/v1/catalog/operations", CATALOG)
            .answer("/api/v1/approvals", APPROVALS)
            .answer("/api/v1/agents", AGENTS)
            .answer("/api/v1/runbooks/templates", TEMPLATES)
            .answer("/api/v1/event-sources", EVENT_SOURCES);

    /** A long timeout, so that a loaded machine cannot fail these tests; those about the timeout set their own. */
    @org.junit.jupiter.api.BeforeEach
    void patientCompletion() {
        backplane.env().put(CompleteCommand.TIMEOUT_ENV, "10000");
    }

    @Test
    void everyKindHasItsNamesFromTheBackplane() {
        assertThat(names("target")).containsExactly("db-1", "web-1", "web-2");
        assertThat(names("connector")).containsExactly("argocd@2.0", "k8s@1.0");
        assertThat(names("op-id")).containsExactly("argocd.app.sync", "k8s.pod.list", "k8s.pod.logs");
        assertThat(names("approval")).containsExactly("0b7c6a52-8d0e-4f57-9a39-5d1f3f0f6a01",
                "5e0c1d3a-1111-4c8b-8f0e-2d6c9a7b0c02");
        assertThat(names("agent")).containsExactly("tidy-up", "triage");
        assertThat(names("runbook")).containsExactly("restart-web", "rotate-certs");
        assertThat(names("event-source")).containsExactly("alertmanager", "harbor");
        assertThat(backplane.seen).extracting(LoopbackBackplane.Seen::path).containsExactlyInAnyOrder(
                "/api/v1/targets", "/api/v1/connectors", "/api/v1/catalog/operations", "/api/v1/approvals",
                "/api/v1/agents", "/api/v1/runbooks/templates", "/api/v1/event-sources");
    }

    @Test
    void onlyNamesThatStartWithThePrefix() {
        assertThat(names("target", "web")).containsExactly("web-1", "web-2");
        assertThat(names("op-id", "k8s.pod.l")).containsExactly("k8s.pod.list", "k8s.pod.logs");
        assertThat(names("agent", "x")).isEmpty();
    }

    @Test
    void aSecondCallWithinTheTtlAsksNoBackplaneAndTheCacheHoldsNamesOnly() throws IOException {
        assertThat(names("target")).containsExactly("db-1", "web-1", "web-2");
        assertThat(names("target", "d")).containsExactly("db-1");
        assertThat(targetRequests()).isEqualTo(1);

        Path cached = only(cacheFiles("names-target-"));
        assertThat(Files.readString(cached)).isEqualTo("db-1\nweb-1\nweb-2\n").doesNotContain("test-token");

        Files.setLastModifiedTime(cached, FileTime.from(Instant.now().minus(NameCache.FRESH).minusSeconds(1)));
        backplane.answer("/api/v1/targets", "{\"targets\": [{\"name\": \"web-3\"}]}");
        assertThat(names("target")).containsExactly("web-3");
        assertThat(targetRequests()).isEqualTo(2);
    }

    @Test
    void eachTenantHasItsOwnCache() {
        assertThat(names("target")).hasSize(3);
        Result other = backplane.svc("__complete", "--tenant", "7d3c2b1a-0000-4000-8000-000000000001", "target");

        assertThat(other.code()).isZero();
        assertThat(other.out().lines()).hasSize(3);
        assertThat(targetRequests()).isEqualTo(2);
        assertThat(cacheFiles("names-target-")).hasSize(2);
    }

    /** Quickly: well within the (long) timeout these tests set, since nothing answers to wait for. */
    @Test
    void aClosedPortAnswersNothingQuicklyAndQuietly() throws IOException {
        int closed;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = s.getLocalPort();
        }
        backplane.env().put("SVC_BACKPLANE", "http://127.0.0.1:" + closed);

        assertQuietAndQuick(backplane.svc("__complete", "target", ""), Instant.now().minusMillis(1));
        Instant start = Instant.now();
        Result r = backplane.svc("__complete", "op-id");
        assertQuietAndQuick(r, start);
        assertThat(cacheFiles("")).isEmpty();
    }

    @Test
    void aBackplaneThatNeverAnswersIsGivenUpWithinTheTimeout() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            List<Socket> accepted = new ArrayList<>();
            Thread acceptor = Thread.ofPlatform().daemon().start(() -> {
                try {
                    while (true) {
                        accepted.add(silent.accept()); // and never answer
                    }
                } catch (IOException closed) {
                    // the test is over
                }
            });
            backplane.env().put("SVC_BACKPLANE", "http://127.0.0.1:" + silent.getLocalPort());
            backplane.env().remove(CompleteCommand.TIMEOUT_ENV);

            Instant start = Instant.now();
            Result r = backplane.svc("__complete", "target", "w");

            assertQuietAndQuick(r, start);
            assertThat(Duration.between(start, Instant.now())).isGreaterThanOrEqualTo(CompleteCommand.TIMEOUT
                    .minusMillis(100)); // it did wait for the answer, up to the timeout

            backplane.env().put(CompleteCommand.TIMEOUT_ENV, "300");
            Instant shorter = Instant.now();
            assertQuietAndQuick(backplane.svc("__complete", "agent"), shorter);
            assertThat(Duration.between(shorter, Instant.now())).isLessThan(CompleteCommand.TIMEOUT);
            silent.close();
            acceptor.join(5000);
            for (Socket s : accepted) {
                s.close();
            }
        }
    }

    @Test
    void withoutALoginNothingIsAskedAndNothingSaid() {
        backplane.env().remove("SVC_TOKEN");

        Result r = backplane.svc("__complete", "target");

        assertQuietAndQuick(r, Instant.now().minusMillis(1));
        assertThat(backplane.seen).isEmpty();
    }

    @Test
    void withoutABackplaneNothingIsSaid() {
        backplane.env().remove("SVC_BACKPLANE");

        assertQuietAndQuick(backplane.svc("__complete", "agent"), Instant.now().minusMillis(1));
    }

    @Test
    void aRefusedLoginOrARefusalAnswersNothing() {
        backplane.answer("/api/v1/targets", 401, "{\"error\":\"unauthorized\",\"message\":\"token expired\"}");
        backplane.answer("/api/v1/agents", 403, "{\"error\":\"forbidden\",\"message\":\"not yours\"}");

        assertQuietAndQuick(backplane.svc("__complete", "target"), Instant.now().minusMillis(1));
        assertQuietAndQuick(backplane.svc("__complete", "agent"), Instant.now().minusMillis(1));
        assertThat(cacheFiles("")).isEmpty(); // a refusal is not kept as "no names"
    }

    @Test
    void namesAShellShouldNotPrintAreLeftOut() {
        backplane.answer("/api/v1/targets", """
                {"targets": [{"name": "ok"}, {"name": "bad\\u001b]0;pwned\\u0007"}, {"name": "two\\nlines"}, {"name": " "}]}
                """);

        assertThat(names("target")).containsExactly("ok");
    }

    @Test
    void anUnknownKindIsAUsageError() {
        Result r = backplane.svc("__complete", "widgets");

        assertThat(r.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("widgets").contains("target, connector, op-id, approval, agent, runbook, event-source");
    }

    @Test
    void helpDoesNotListIt() {
        Result r = backplane.svc("--help");

        assertThat(r.out()).contains("completion").doesNotContain("__complete");
    }

    private List<String> names(String kind, String... prefix) {
        List<String> args = new ArrayList<>(List.of("__complete", kind));
        args.addAll(List.of(prefix));
        Result r = backplane.svc(args.toArray(String[]::new));
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.err()).isEmpty();
        return r.out().lines().toList();
    }

    private long targetRequests() {
        return backplane.seen.stream().filter(s -> s.path().equals("/api/v1/targets")).count();
    }

    private static void assertQuietAndQuick(Result r, Instant start) {
        assertThat(r.code()).isZero();
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).isEmpty();
        assertThat(Duration.between(start, Instant.now())).isLessThan(Duration.ofSeconds(3));
    }

    private List<Path> cacheFiles(String prefix) {
        Path dir = backplane.home().resolve("svc").resolve("cache");
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().startsWith(prefix)).toList();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static Path only(List<Path> files) {
        assertThat(files).hasSize(1);
        return files.getFirst();
    }
}
