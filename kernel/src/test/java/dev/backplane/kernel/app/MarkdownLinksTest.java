package dev.backplane.kernel.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every relative link in the repository's Markdown files ({@code README.md}, {@code docs/**}, the plugins' and
 * modules' READMEs, {@code bench/**}, ...) points at a file that exists and, when it names an {@code #anchor} in a
 * Markdown file, at a heading (or {@code <a id>}) that file has — with GitHub's rule for heading anchors. External
 * links ({@code https:}, {@code mailto:}) are not fetched. A link that leaves the repository is broken too: it would be
 * on GitHub.
 */
class MarkdownLinksTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Set<String> SKIPPED_DIRS = Set.of("target", "node_modules", ".git", ".svc-local", ".mvn",
            ".idea");
    /** {@code [text](dest)} and {@code ![alt](dest)}; dest without spaces, optionally followed by a title. */
    private static final Pattern LINK = Pattern.compile("!?\\[(?:[^\\[\\]]|\\[[^\\[\\]]*\\])*\\]\\(\\s*<?([^)\\s>]+)>?(?:\\s+\"[^\"]*\")?\\s*\\)");
    private static final Pattern HEADING = Pattern.compile("^ {0,3}(#{1,6})\\s+(.*?)\\s*#*\\s*$");
    private static final Pattern HTML_ANCHOR = Pattern.compile("<a\\s+(?:id|name)=\"([^\"]+)\"");
    private static final Pattern SCHEME = Pattern.compile("^[a-zA-Z][a-zA-Z0-9+.-]*:");

    private final Map<Path, Set<String>> anchors = new HashMap<>();

    @Test
    void everyRelativeLinkPointsAtAFileAndAnchorThatExist() throws IOException {
        List<Path> files = markdownFiles();
        assertThat(files).as("Markdown files found under " + ROOT).contains(ROOT.resolve("README.md"));
        List<String> broken = new ArrayList<>();
        int checked = 0;
        for (Path file : files) {
            for (String dest : links(Files.readString(file, StandardCharsets.UTF_8))) {
                if (SCHEME.matcher(dest).find() || dest.startsWith("//")) {
                    continue;
                }
                checked++;
                String problem = problem(file, dest);
                if (problem != null) {
                    broken.add(ROOT.relativize(file) + ": (" + dest + ") " + problem);
                }
            }
        }
        assertThat(checked).as("relative links checked").isGreaterThan(50);
        assertThat(broken).as("broken relative links in the Markdown files").isEmpty();
    }

    /** The checker itself: GitHub's heading anchors, and a missing file or anchor is found. */
    @Test
    void theCheckerFindsWhatIsBroken() throws IOException {
        assertThat(anchor("Family verbs (`svc <family> <noun> <verb>`)")).isEqualTo("family-verbs-svc-family-noun-verb");
        assertThat(anchor("MCP (agents)")).isEqualTo("mcp-agents");
        assertThat(anchor("Security model and the review's fixes")).isEqualTo("security-model-and-the-reviews-fixes");
        assertThat(anchor("`svc login <backplane-url>`")).isEqualTo("svc-login-backplane-url");
        assertThat(anchor("Retrieval quality: `svc retrieval eval`, `usage`, `retire-checklist`"))
                .isEqualTo("retrieval-quality-svc-retrieval-eval-usage-retire-checklist");
        assertThat(links("see [a](x.md#y), ![img](p.png \"t\"), `[not](code.md)`, [web](https://e.org)\n```\n[no](fenced.md)\n```\n"))
                .containsExactly("x.md#y", "p.png", "https://e.org");
        Path readme = ROOT.resolve("README.md");
        assertThat(problem(readme, "docs/no-such-page.md")).contains("no such file");
        assertThat(problem(readme, "#no-such-heading")).contains("no heading");
        assertThat(problem(readme, "../outside.md")).contains("outside the repository");
        assertThat(problem(readme, "CONTRIBUTING.md")).isNull();
    }

    private static List<Path> markdownFiles() throws IOException {
        List<Path> out = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(ROOT)) {
            walk.filter(p -> p.getFileName().toString().endsWith(".md"))
                    .filter(p -> {
                        for (Path part : ROOT.relativize(p)) {
                            if (SKIPPED_DIRS.contains(part.toString())) {
                                return false;
                            }
                        }
                        return true;
                    })
                    .filter(Files::isRegularFile)
                    .sorted()
                    .forEach(out::add);
        }
        return out;
    }

    /** Link destinations outside fenced code blocks and code spans. */
    static List<String> links(String markdown) {
        List<String> out = new ArrayList<>();
        boolean fenced = false;
        for (String line : markdown.split("\n", -1)) {
            String trimmed = line.stripLeading();
            if (trimmed.startsWith("```") || trimmed.startsWith("~~~")) {
                fenced = !fenced;
                continue;
            }
            if (fenced) {
                continue;
            }
            Matcher m = LINK.matcher(line.replaceAll("`[^`]*`", "``"));
            while (m.find()) {
                out.add(m.group(1));
            }
        }
        return out;
    }

    private String problem(Path from, String dest) throws IOException {
        int hash = dest.indexOf('#');
        String pathPart = hash < 0 ? dest : dest.substring(0, hash);
        String fragment = hash < 0 ? null : dest.substring(hash + 1);
        int query = pathPart.indexOf('?');
        if (query >= 0) {
            pathPart = pathPart.substring(0, query);
        }
        Path target = pathPart.isEmpty() ? from
                : from.getParent().resolve(java.net.URLDecoder.decode(pathPart, StandardCharsets.UTF_8)).normalize();
        if (!target.startsWith(ROOT)) {
            return "points outside the repository";
        }
        if (!Files.exists(target)) {
            return "no such file: " + ROOT.relativize(target);
        }
        if (fragment == null || fragment.isEmpty() || !target.toString().endsWith(".md")) {
            return null;
        }
        if (!anchorsOf(target).contains(fragment.toLowerCase(Locale.ROOT))) {
            return "no heading or anchor #" + fragment + " in " + ROOT.relativize(target);
        }
        return null;
    }

    private Set<String> anchorsOf(Path file) throws IOException {
        Set<String> known = anchors.get(file);
        if (known != null) {
            return known;
        }
        Set<String> out = new HashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        boolean fenced = false;
        for (String line : Files.readString(file, StandardCharsets.UTF_8).split("\n", -1)) {
            String trimmed = line.stripLeading();
            if (trimmed.startsWith("```") || trimmed.startsWith("~~~")) {
                fenced = !fenced;
                continue;
            }
            if (fenced) {
                continue;
            }
            Matcher html = HTML_ANCHOR.matcher(line);
            while (html.find()) {
                out.add(html.group(1).toLowerCase(Locale.ROOT));
            }
            Matcher h = HEADING.matcher(line);
            if (h.matches()) {
                String base = anchor(h.group(2));
                int n = seen.merge(base, 1, Integer::sum) - 1;
                out.add(n == 0 ? base : base + "-" + n);
            }
        }
        anchors.put(file, out);
        return out;
    }

    /** GitHub's anchor of a heading: its text, lower-cased, punctuation dropped, spaces as hyphens. */
    static String anchor(String heading) {
        String text = heading.replaceAll("!?\\[([^\\]]*)\\]\\([^)]*\\)", "$1"); // a link's text only
        StringBuilder out = new StringBuilder();
        text.toLowerCase(Locale.ROOT).codePoints().forEach(c -> {
            if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
                out.appendCodePoint(c);
            } else if (c == ' ') {
                out.append('-');
            }
        });
        return out.toString();
    }
}
