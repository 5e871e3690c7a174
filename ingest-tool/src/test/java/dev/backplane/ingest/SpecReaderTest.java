package dev.backplane.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.backplane.ingest.SpecIngestException.Reason;
import dev.backplane.ingest.SpecReader.RawSpec;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SpecReaderTest {

    private static final byte[] SPEC = SpecIngesterTest.PETS.getBytes(StandardCharsets.UTF_8);
    private HttpServer server;
    private String base;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/pets.yaml", exchange -> {
            exchange.sendResponseHeaders(200, SPEC.length);
            try (OutputStream body = exchange.getResponseBody()) {
                body.write(SPEC);
            }
        });
        server.createContext("/endless.yaml", exchange -> {
            exchange.sendResponseHeaders(200, 0);
            try (OutputStream body = exchange.getResponseBody()) {
                for (int i = 0; i < 1000; i++) {
                    body.write(SPEC);
                }
            }
            catch (IOException expected) {
                // the reader hung up at the cap
            }
        });
        server.start();
        base = "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    @Test
    void readsHttpUrl() {
        RawSpec raw = new SpecReader(1_000_000).read(SpecSource.of(base + "/pets.yaml"));
        assertThat(raw.text()).isEqualTo(SpecIngesterTest.PETS);
        assertThat(raw.bytes()).isEqualTo(SPEC.length);
        assertThat(raw.displayName()).isEqualTo("pets.yaml");
        assertThat(raw.sha256()).hasSize(64);
    }

    @Test
    void stopsDownloadingAtTheCap() {
        assertThatThrownBy(() -> new SpecReader(1_000_000).read(SpecSource.of(base + "/endless.yaml")))
                .isInstanceOfSatisfying(SpecIngestException.class,
                        e -> assertThat(e.reason()).isEqualTo(Reason.SPEC_TOO_LARGE));
        assertThatThrownBy(() -> new SpecReader(100).read(SpecSource.of(base + "/pets.yaml")))
                .isInstanceOfSatisfying(SpecIngestException.class,
                        e -> assertThat(e.reason()).isEqualTo(Reason.SPEC_TOO_LARGE));
    }

    @Test
    void httpErrorIsUnreadable() {
        assertThatThrownBy(() -> new SpecReader(1_000_000).read(SpecSource.of(base + "/missing.yaml")))
                .isInstanceOfSatisfying(SpecIngestException.class,
                        e -> assertThat(e.reason()).isEqualTo(Reason.SPEC_UNREADABLE))
                .hasMessageContaining("HTTP 404");
    }

    @Test
    void readsFileUrlAndPath(@TempDir Path dir) throws IOException {
        Path file = Files.write(dir.resolve("pets.yaml"), SPEC);
        assertThat(new SpecReader(1_000_000).read(SpecSource.of(file.toUri().toString())).text())
                .isEqualTo(SpecIngesterTest.PETS);
        assertThat(new SpecReader(1_000_000).read(SpecSource.of(file.toString())).baseUri()).isEqualTo(file.toUri());
    }
}
