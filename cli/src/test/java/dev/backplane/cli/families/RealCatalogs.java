package dev.backplane.cli.families;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.backplane.ingest.IngestOptions;
import dev.backplane.ingest.IngestResult;
import dev.backplane.ingest.SpecIngester;
import dev.backplane.ingest.SpecSource;
import dev.backplane.plugin.api.OperationDescriptor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Catalogs built offline by the ingest tool from the vendor specs in {@code <repo>/../shared/specs} (or
 * {@code -Dsvc.shared.dir}; read in place, never copied), in the shape {@code GET /api/v1/catalog/operations}
 * serves. The tests that use them are skipped when the specs are absent.
 */
final class RealCatalogs {

    /** Spec file and the family (impl_id) each is ingested as. */
    static final Map<String, String> SPECS = Map.of(
            "docker", "docker-engine-1.56-swagger.yaml",
            "argocd", "argocd-swagger.json",
            "harbor", "harbor-v2.0-swagger.yaml",
            "nomad", "nomad-openapi.yaml",
            "powerdns", "powerdns-auth-openapi-3.1.yaml",
            "vault", "vault-openapi.json",
            "keycloak", "keycloak-23.0.7-openapi.json",
            "k8s", "kubernetes-v1.36-swagger.json",
            "coolify", "coolify-openapi-3.1.yaml");

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Map<String, List<OperationDescriptor>> CACHE = new ConcurrentHashMap<>();

    private RealCatalogs() {
    }

    /** The specs directory; skips the calling test when it is absent. */
    static Path dir() {
        String shared = System.getProperty("svc.shared.dir");
        Path repo = repo();
        Path specs = shared != null ? Path.of(shared).resolve("specs")
                : repo.getParent() == null ? null : repo.getParent().resolve("shared/specs");
        assumeTrue(specs != null && Files.isDirectory(specs), "vendor specs not found at " + specs
                + " (<repo>/../shared/specs, or -Dsvc.shared.dir)");
        return specs;
    }

    /** The family's operations as the ingest tool makes them from its spec. */
    static List<OperationDescriptor> operations(String family) {
        return CACHE.computeIfAbsent(family, f -> {
            Path spec = dir().resolve(SPECS.get(f));
            assumeTrue(Files.isRegularFile(spec), "vendor spec " + spec + " is absent");
            IngestResult r = SpecIngester.ingest(List.of(SpecSource.of(spec.toString())),
                    new IngestOptions(f, "1.x", f, List.of("*"), IngestOptions.DEFAULT_MAX_BYTES, false, p -> { }));
            return r.catalog().operations();
        });
    }

    /** The operations of our own specs in {@code plugin-repo/specs/<dir>} (all its spec files ingested together). */
    static List<String> pluginRepoOpIds(String family, String dir, String... files) {
        Path specs = repo().resolve("plugin-repo/specs").resolve(dir);
        List<SpecSource> sources = java.util.Arrays.stream(files).map(f -> SpecSource.of(specs.resolve(f).toString()))
                .toList();
        return SpecIngester.ingest(sources, new IngestOptions(family, "1.x", family, List.of("*"),
                IngestOptions.DEFAULT_MAX_BYTES, false, p -> { })).catalog().operations().stream()
                .map(OperationDescriptor::opId).toList();
    }

    private static Path repo() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isDirectory(dir.resolve("ingest-tool")) && Files.isRegularFile(dir.resolve("pom.xml"))) {
                return dir;
            }
        }
        throw new IllegalStateException("not inside the repository: " + Path.of("").toAbsolutePath());
    }

    /** {@code GET /api/v1/catalog/operations} with one connector, {@code <family>-1.x}, of the family's spec. */
    static String catalogJson(String family) {
        ObjectNode root = JSON.createObjectNode().put("revision", "r1");
        ObjectNode connector = root.putArray("connectors").addObject().put("connector_id", family + "-1.x")
                .put("impl_id", family).put("version", "1.x");
        connector.putArray("products").add(family);
        ArrayNode ops = connector.putArray("operations");
        try {
            for (OperationDescriptor d : operations(family)) {
                ops.addObject().put("op_id", d.opId()).put("group_key", d.groupKey())
                        .put("description", d.description())
                        .put("safety_level", d.safetyLevel().name().toLowerCase(Locale.ROOT))
                        .put("requires_approval", d.requiresApproval())
                        .put("op_class", d.opClass().name().toLowerCase(Locale.ROOT))
                        .set("params_schema", JSON.readTree(d.paramsSchema()));
            }
            return JSON.writeValueAsString(root);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
