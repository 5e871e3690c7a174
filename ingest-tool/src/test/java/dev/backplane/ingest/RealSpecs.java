package dev.backplane.ingest;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The vendor specs the repository is tested against, read in place from {@code <repo>/../shared/specs}
 * (never copied into the repository), and counts taken from their raw JSON/YAML without the ingester.
 */
final class RealSpecs {

    static final List<String> METHODS = List.of("get", "put", "post", "delete", "options", "head", "patch");

    private RealSpecs() {
    }

    /** The specs directory; skips the calling test when it is absent. */
    static Path dir() {
        Path repo = null;
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isDirectory(dir.resolve("ingest-tool")) && Files.isRegularFile(dir.resolve("pom.xml"))) {
                repo = dir;
                break;
            }
        }
        Path specs = repo == null || repo.getParent() == null ? null : repo.getParent().resolve("shared/specs");
        assumeTrue(specs != null && Files.isDirectory(specs),
                "vendor specs not found at <repo>/../shared/specs (looked from " + Path.of("").toAbsolutePath()
                        + "); the real-spec tests need them");
        return specs;
    }

    static Path spec(String fileName) {
        Path path = dir().resolve(fileName);
        assumeTrue(Files.isRegularFile(path), "vendor spec " + path + " is absent");
        return path;
    }

    static JsonNode tree(Path path) throws IOException {
        ObjectMapper mapper = path.toString().endsWith(".json") ? new ObjectMapper() : new YAMLMapper();
        return mapper.readTree(path.toFile());
    }

    /** (path, method) pairs for the seven methods under {@code paths}. */
    static int operationCount(JsonNode tree) {
        int count = 0;
        for (Map.Entry<String, JsonNode> path : tree.path("paths").properties()) {
            if (!path.getKey().startsWith("/")) {
                continue;
            }
            for (String method : METHODS) {
                if (path.getValue().has(method)) {
                    count++;
                }
            }
        }
        return count;
    }

    /** Distinct group keys: the slug of the first tag, else of the first literal path segment, else root. */
    static Set<String> groupKeys(JsonNode tree) {
        Set<String> keys = new LinkedHashSet<>();
        for (Map.Entry<String, JsonNode> path : tree.path("paths").properties()) {
            if (!path.getKey().startsWith("/")) {
                continue;
            }
            for (String method : METHODS) {
                JsonNode op = path.getValue().get(method);
                if (op == null) {
                    continue;
                }
                String key = slug(op.path("tags").path(0).asText(""));
                if (key.isEmpty()) {
                    key = "root";
                    for (String segment : path.getKey().split("/")) {
                        if (!segment.isEmpty() && !segment.startsWith("{")) {
                            key = slug(segment).isEmpty() ? "root" : slug(segment);
                            break;
                        }
                    }
                }
                keys.add(key);
            }
        }
        return keys;
    }

    private static String slug(String text) {
        return text.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "_").replaceAll("^_+|_+$", "");
    }
}
