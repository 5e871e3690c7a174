package dev.backplane.kernel.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.plugins.PluginLoading;
import dev.backplane.kernel.retrieval.RetrievalEngine;
import dev.backplane.kernel.testing.TestKernel;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * What the operation-search ITs share: the vendor specs read in place from {@code ../shared/specs}, an ingest through
 * the kernel's REST route (within the request, or as a job polled to its end), a catalog service on an engine of the
 * test's own (another replica, as far as the vectors go), waiting for a connector's vectors, and the labelled query
 * sets under {@code retrieval/}.
 */
final class OperationSearchFixture {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The shared vendor specs ({@code -Dsvc.shared.dir}; CI checks the project out beside ../shared). */
    static final Path SPECS = Path.of(System.getProperty("svc.shared.dir", "../../shared")).resolve("specs")
            .toAbsolutePath().normalize();

    private OperationSearchFixture() {
    }

    /** A labelled query: the text as an operator asks it, and the operation ids (without the connector prefix) that answer it. */
    record Query(String text, Set<String> relevant) {
    }

    /** A catalog service over the kernel's database and change feed, searching on {@code engine}. */
    static CatalogService catalog(Path work, Jdbc jdbc, TestKernel k, RetrievalEngine engine) {
        Duration timeout = Duration.ofSeconds(30);
        ConnectorRegistry registry = new ConnectorRegistry(PluginLoading.load(work.resolve("plugins"), timeout),
                new IngestStore(jdbc), k.kernel().changeFeed(), CatalogIndex.empty(), timeout);
        return new CatalogService(registry, jdbc, k.kernel().changeFeed(), engine);
    }

    /** Waits (up to 5 minutes) until the connector's operation vectors are in on {@code catalog}'s engine. */
    static void awaitVectors(CatalogService catalog, UUID tenant, String connector) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
        while (!catalog.searchVectorsReady(tenant, connector)) {
            assertThat(System.nanoTime()).as("operation vectors ready within 5 minutes").isLessThan(deadline);
            Thread.sleep(100);
        }
    }

    /** {@link #ingest(TestKernel, String, String, String, Path, boolean)} not checking the job's progress. */
    static JsonNode ingest(TestKernel k, String admin, String impl, String version, Path spec) throws Exception {
        return ingest(k, admin, impl, version, spec, false);
    }

    /**
     * Ingests {@code spec} through the real route as connector {@code impl-version}: within the request, or as a job
     * polled to its end; the result. With {@code honestProgress}, a job still running must never say it is done (the
     * conversion's end is not the ingest's).
     */
    static JsonNode ingest(TestKernel k, String admin, String impl, String version, Path spec, boolean honestProgress)
            throws Exception {
        String body = JSON.writeValueAsString(Map.of("product", impl, "impl", impl, "version", version,
                "spec_info_versions_compatible", List.of("*"),
                "specs", List.of(Map.of("name", spec.getFileName().toString(), "content", Files.readString(spec)))));
        TestKernel.Response r = k.send("POST", "/api/v1/connectors/ingest", admin, body, Map.of());
        assertThat(r.status()).as(r.body()).isIn(200, 202);
        if (r.status() == 200) {
            return r.json();
        }
        String job = r.json().path("job_id").asText();
        long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
        JsonNode now = k.get("/api/v1/connectors/ingest-jobs/" + job, admin).json();
        while (!now.path("terminal").asBoolean()) {
            if (honestProgress) {
                assertThat(now.path("progress").path("stage").asText()).as(now.toString()).isNotEqualTo("done");
            }
            assertThat(System.nanoTime()).isLessThan(deadline);
            Thread.sleep(100);
            now = k.get("/api/v1/connectors/ingest-jobs/" + job, admin).json();
        }
        assertThat(now.path("status").asText()).as(now.toString()).isEqualTo("succeeded");
        assertThat(now.path("progress").path("stage").asText()).isEqualTo("done");
        return now.path("result");
    }

    /** A labelled query set: lines of text TAB comma-separated op ids; blank lines and {@code #} comments skipped. */
    static List<Query> queries(String resource) throws IOException {
        List<Query> out = new ArrayList<>();
        try (InputStream in = OperationSearchFixture.class.getResourceAsStream(resource)) {
            assertThat(in).as(resource).isNotNull();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] f = line.split("\t");
                assertThat(f).as("query TAB op ids: " + line).hasSize(2);
                out.add(new Query(f[0].strip(), new LinkedHashSet<>(List.of(f[1].strip().split(",")))));
            }
        }
        return out;
    }
}
