package dev.backplane.kernel.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The settings a reader is told about are the settings the kernel reads. The table itself is generated
 * ({@code docs/reference/settings.md}, checked by {@link SettingsReferenceTest}, which also checks that it has a row
 * for every {@link Setting}); what is left to check is the prose around it: the README sends readers to that
 * reference, and no Markdown page of the repository names a setting key (in a code span, such as
 * {@code `results.handle-ttl-minutes`}) that no {@link Setting} declares — a renamed or removed setting still
 * documented somewhere.
 */
class ReadmeSettingsTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Set<String> KEYS = Arrays.stream(Setting.values()).map(Setting::key)
            .collect(Collectors.toCollection(TreeSet::new));
    /** The first segment of every key: {@code server}, {@code db}, {@code identity}, ... */
    private static final Set<String> PREFIXES = KEYS.stream().map(k -> k.substring(0, k.indexOf('.')))
            .collect(Collectors.toSet());
    /** A dotted name in a code span, optionally followed by {@code =value}. */
    private static final Pattern CODE_KEY = Pattern.compile("`([a-z][a-z0-9-]*(?:\\.[a-z0-9-]+)+)(?:=[^`]*)?`");
    private static final Pattern FILE_NAME = Pattern.compile(".*\\.(ya?ml|json|md|jar|txt|html|properties)$");

    @Test
    void theReadmeSendsReadersToTheGeneratedSettingsReference() throws IOException {
        String readme = Files.readString(ROOT.resolve("README.md"), StandardCharsets.UTF_8);
        assertThat(readme).contains("(docs/reference/settings.md)");
        assertThat(readme).as("the settings table lives in docs/reference/settings.md, generated")
                .doesNotContain("| `server.port` | `SVC_SERVER_PORT` |");
    }

    @Test
    void everySettingKeyTheDocsNameExists() throws IOException {
        List<String> unknown;
        try (Stream<Path> walk = Files.walk(ROOT)) {
            unknown = walk.filter(p -> p.toString().endsWith(".md"))
                    .filter(p -> !ROOT.relativize(p).toString().matches("(^|.*/)(target|node_modules|\\.git|\\.svc-local)/.*"))
                    .sorted()
                    .flatMap(p -> unknownKeys(p).stream())
                    .toList();
        }
        assertThat(unknown).as("setting keys named in the docs that no Setting declares").isEmpty();
    }

    @Test
    void aRemovedOrMistypedKeyIsFound() {
        assertThat(unknownKeysIn("see `results.handle-ttl-minutes`, `db.url=jdbc:...` and `results.handle-ttl`"))
                .containsExactly("results.handle-ttl");
        assertThat(unknownKeysIn("`targets.yaml`, `data.supported`, `data.dir`, `a.b`")).isEmpty();
    }

    private static List<String> unknownKeys(Path file) {
        try {
            return unknownKeysIn(Files.readString(file, StandardCharsets.UTF_8)).stream()
                    .map(k -> ROOT.relativize(file) + ": " + k).toList();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static List<String> unknownKeysIn(String markdown) {
        Set<String> out = new TreeSet<>();
        Matcher m = CODE_KEY.matcher(markdown);
        while (m.find()) {
            String key = m.group(1);
            String prefix = key.substring(0, key.indexOf('.'));
            if (!PREFIXES.contains(prefix) || KEYS.contains(key) || FILE_NAME.matcher(key).matches()) {
                continue;
            }
            if (prefix.equals("data")) { // data.dir is the one setting; data.uri, data.supported, ... are JSON-RPC fields
                continue;
            }
            out.add(key);
        }
        return List.copyOf(out);
    }
}
