package dev.backplane.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/** The chart under test, rendered and linted by Helm's own engine (helm-java: Helm's Go library, in process). */
final class Chart {

    static final Path MODULE = Path.of("").toAbsolutePath();
    static final Path DIR = MODULE.resolve("helm/svc-backplane");
    static final Path VALUES = MODULE.resolve("src/test/resources/values");
    static final Path GOLDEN = MODULE.resolve("src/test/resources/golden");
    static final List<String> VALUE_SETS = List.of("minimal", "ha", "everything");
    static final String RELEASE = "svc";
    static final String NAMESPACE = "svc";
    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private Chart() {
    }

    static boolean updateGolden() {
        return Boolean.getBoolean("golden.update");
    }

    /**
     * helm-java's template returns the release's manifest without its hooks (the migration Job, the test Pod).
     * So the chart is rendered from a copy whose templates spell the hook annotations {@link #HOOK_ALIAS} instead of
     * {@code helm.sh/hook} (Helm then treats those objects as ordinary ones), and the output is turned back. The
     * templates, values, schema and files are otherwise the chart's own, rendered by Helm's engine.
     */
    static final String HOOK_ALIAS = "rendered-by-test.invalid/hook";
    private static Path renderDir;

    static synchronized Path renderDir() {
        if (renderDir == null) {
            try {
                renderDir = copy(DIR);
                try (Stream<Path> walk = Files.walk(renderDir.resolve("templates"))) {
                    for (Path t : walk.filter(Files::isRegularFile).toList()) {
                        Files.writeString(t, Files.readString(t).replace("helm.sh/hook", HOOK_ALIAS));
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return renderDir;
    }

    static String unalias(String rendered) {
        return rendered.replace(HOOK_ALIAS, "helm.sh/hook");
    }

    static Path copy(Path chart) throws IOException {
        // under the module's build directory, not /tmp: the copies go with target/ and never pile up between runs
        Path copy = Files.createTempDirectory(Files.createDirectories(Path.of("target", "chart-copies")), "chart")
                .resolve("svc-backplane");
        try (Stream<Path> walk = Files.walk(chart)) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                Path t = copy.resolve(chart.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(t);
                } else {
                    Files.copy(p, t, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
        return copy;
    }

    /** {@code helm template svc <chart> -n svc -f values/<set>.yaml} (with extra {@code --set}s), hooks included. */
    static String render(String valueSet, Map<String, Object> sets) {
        var cmd = new Helm(renderDir()).template().withName(RELEASE).withNamespace(NAMESPACE).withKubeVersion("1.31.0")
                .withValuesFile(VALUES.resolve(valueSet + ".yaml"));
        sets.forEach(cmd::set);
        return unalias(cmd.call());
    }

    static String render(String valueSet) {
        return render(valueSet, Map.of());
    }

    /** Renders with a values file holding exactly {@code yaml} (no value set underneath). */
    static String renderYaml(String yaml) {
        try {
            Path f = Files.createTempFile("values", ".yaml");
            try {
                Files.writeString(f, yaml, StandardCharsets.UTF_8);
                return unalias(new Helm(renderDir()).template().withName(RELEASE).withNamespace(NAMESPACE)
                        .withValuesFile(f).call());
            } finally {
                Files.delete(f);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The rendered documents, in order (empty documents dropped). */
    static List<JsonNode> documents(String rendered) {
        List<JsonNode> out = new ArrayList<>();
        try (MappingIterator<JsonNode> it = YAML.readerFor(JsonNode.class).readValues(rendered)) {
            while (it.hasNext()) {
                JsonNode n = it.next();
                if (n != null && !n.isNull() && !n.isMissingNode() && !n.isEmpty()) {
                    out.add(n);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /**
     * {@code helm lint --strict} of the chart with a value set. helm-java's lint takes no values file, so the chart is
     * copied with its values.yaml replaced by the defaults merged with the set (as Helm merges them: maps deeply,
     * everything else replaced); the schema, templates and files are the chart's own.
     */
    static LintResult lintStrict(String valueSet) {
        try {
            Path copy = copy(DIR);
            JsonNode defaults = YAML.readTree(DIR.resolve("values.yaml").toFile());
            JsonNode set = YAML.readTree(VALUES.resolve(valueSet + ".yaml").toFile());
            YAML.writeValue(copy.resolve("values.yaml").toFile(), merge((ObjectNode) defaults.deepCopy(), set));
            return new Helm(copy).lint().strict().call();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static ObjectNode merge(ObjectNode base, JsonNode over) {
        for (Iterator<Map.Entry<String, JsonNode>> it = over.fields(); it.hasNext(); ) {
            var e = it.next();
            JsonNode b = base.get(e.getKey());
            if (b instanceof ObjectNode bo && e.getValue().isObject()) {
                merge(bo, e.getValue());
            } else {
                base.set(e.getKey(), e.getValue());
            }
        }
        return base;
    }
}
