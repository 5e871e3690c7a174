package dev.backplane.cli.memory;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * An agent's laptop-local memory directory, as a coding agent keeps it: one Markdown file per memory
 * with front matter ({@code name}, {@code description}, {@code type}: user, feedback, project or
 * reference) and an index file ({@code MEMORY.md}) that is not itself a memory. Each file becomes a
 * planned backplane memory entry — or a reason to skip it.
 */
final class LocalMemory {

    /** Written anywhere in a file, keeps it from being flagged machine-local. */
    static final String OPT_OUT = "<!-- svc:machine-local:opt-out -->";
    static final String INDEX = "memory.md";
    private static final YAMLMapper YAML = new YAMLMapper();
    /** A home-directory path, {@code ~/} or a Windows drive path — each starting a path, not inside one. */
    private static final Pattern HOME_PATH = Pattern.compile("(?<![\\w/.~-])((/Users/|/home/)[A-Za-z0-9._-]+|~/)"
            + "|\\b[A-Za-z]:\\\\");

    /** One file's plan: migrate it as {@code scope}/{@code slug}, or skip it for {@code skip}. */
    record Planned(String file, String slug, String scope, Optional<String> target, List<String> tags, String body,
                   String sha256, Optional<String> machineLocal, Optional<String> skip) {
    }

    private LocalMemory() {
    }

    /** The default source: {@code ~/.claude/projects/<project dir, non-alphanumerics as '-'>/memory}. */
    static Path defaultSource(Map<String, String> env) {
        String home = Optional.ofNullable(env.get("HOME")).orElse(System.getProperty("user.home"));
        String project = Optional.ofNullable(env.get("CLAUDE_PROJECT_DIR")).or(() -> Optional.ofNullable(env.get("PWD")))
                .orElse(System.getProperty("user.dir"));
        return Path.of(home, ".claude", "projects", project.replaceAll("[^A-Za-z0-9]", "-"), "memory");
    }

    /** Every memory file of {@code dir} (not recursive), sorted, planned. */
    static List<Planned> scan(Path dir, String username) throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> Files.isRegularFile(p) && p.getFileName().toString().toLowerCase(Locale.ROOT)
                    .endsWith(".md") && !p.getFileName().toString().startsWith(".")).sorted().toList();
        }
        List<Planned> out = new ArrayList<>();
        for (Path f : files) {
            String name = f.getFileName().toString();
            if (name.equalsIgnoreCase(INDEX)) {
                continue;
            }
            out.add(plan(name, Files.readString(f, StandardCharsets.UTF_8), username));
        }
        return out;
    }

    static Planned plan(String file, String text, String username) {
        String sha = sha256(text);
        String content = text.replace("\r\n", "\n");
        Map<String, Object> front = Map.of();
        Optional<String> invalid = Optional.empty();
        String rest = content;
        if (content.startsWith("---\n")) {
            int end = content.indexOf("\n---", 3);
            if (end > 0) {
                FrontMatter parsed = frontMatter(content.substring(4, end));
                front = parsed.values();
                invalid = parsed.invalid();
                int nl = content.indexOf('\n', end + 4);
                rest = nl < 0 ? "" : content.substring(nl + 1);
            }
        }
        String slug = Optional.ofNullable(front.get("slug")).map(Object::toString).orElse(slug(file));
        String type = String.valueOf(front.getOrDefault("type", "")).trim().toLowerCase(Locale.ROOT);
        String scope = Optional.ofNullable(front.get("scope")).map(Object::toString).orElse(scope(type));
        Optional<String> target = Optional.ofNullable(front.get("target")).map(Object::toString);
        List<String> tags = new ArrayList<>(List.of("migrated"));
        if (!type.isEmpty()) {
            tags.add("type:" + type);
        }
        if (front.get("tags") instanceof List<?> l) {
            l.forEach(t -> tags.add(t.toString()));
        }
        String description = String.valueOf(front.getOrDefault("description", "")).trim();
        String body = rest.strip();
        if (!description.isEmpty() && !body.startsWith(description)) {
            body = body.isEmpty() ? description : description + "\n\n" + body;
        }
        Optional<String> local = machineLocal(text, username);
        Optional<String> skip = invalid;
        if (skip.isPresent()) {
            // already refused: the front matter did not parse
        } else if (front.isEmpty()) {
            skip = Optional.of("no front matter: not a memory file");
        } else if (body.isEmpty()) {
            skip = Optional.of("empty body");
        } else if (!slug.matches("[a-z0-9][a-z0-9._-]{0,127}")) {
            skip = Optional.of("slug '" + slug + "' is not valid (lower-case letters, digits, '.', '_', '-')");
        } else if (!MemoryCommands.SCOPES.contains(scope)) {
            skip = Optional.of("scope '" + scope + "' is not one of " + MemoryCommands.SCOPES);
        } else if (scope.endsWith("target") && target.isEmpty()) {
            skip = Optional.of("scope " + scope + " needs target: in the front matter");
        }
        return new Planned(file, slug, scope, target, tags, body, sha, local, skip);
    }

    /**
     * Where a memory type goes: personal kinds (user, feedback) to scope user — you, in every tenant;
     * project context and references to user-tenant — you, in this tenant; anything else to the
     * narrower user-tenant too. Nothing goes to a shared scope unasked (front matter {@code scope:}).
     */
    static String scope(String type) {
        return switch (type) {
            case "user", "feedback" -> "user";
            default -> "user-tenant";
        };
    }

    /** The slug of a file name: extension dropped, accents stripped, lower case, other characters as '-'. */
    static String slug(String file) {
        String s = Normalizer.normalize(file.replaceFirst("\\.[A-Za-z]+$", ""), Normalizer.Form.NFD)
                .replaceAll("\\p{M}", "").toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9._]+", "-")
                .replaceAll("^[^a-z0-9]+", "").replaceAll("[^a-z0-9]+$", "");
        if (s.isEmpty()) {
            return "memory-" + sha256(file).substring(0, 8);
        }
        return s.length() > 128 ? s.substring(0, 128).replaceAll("[^a-z0-9]+$", "") : s;
    }

    /**
     * Why a memory looks specific to this machine — home-directory paths, {@code ~/}, Windows drive
     * paths, or the user name three times or more — unless it carries {@link #OPT_OUT}.
     */
    static Optional<String> machineLocal(String text, String username) {
        if (text.contains(OPT_OUT)) {
            return Optional.empty();
        }
        Matcher m = HOME_PATH.matcher(text);
        if (m.find()) {
            return Optional.of("mentions a local path (" + m.group().strip() + ")");
        }
        if (username != null && username.length() >= 3) {
            long n = Pattern.compile("\\b" + Pattern.quote(username) + "\\b", Pattern.CASE_INSENSITIVE).matcher(text)
                    .results().count();
            if (n >= 3) {
                return Optional.of("names the local user '" + username + "' " + n + " times");
            }
        }
        return Optional.empty();
    }

    /**
     * The front matter as YAML (Jackson, as the kernel reads YAML), or a reason it is not: a file whose
     * front matter does not parse, or is not a mapping, is skipped with that reason, never half-read.
     */
    static FrontMatter frontMatter(String text) {
        try {
            Object doc = YAML.readValue(text, Object.class);
            if (doc == null) {
                return new FrontMatter(Map.of(), Optional.empty());
            }
            if (!(doc instanceof Map<?, ?> map)) {
                return new FrontMatter(Map.of(), Optional.of("front matter is not a mapping of keys to values"));
            }
            Map<String, Object> out = new LinkedHashMap<>();
            map.forEach((k, v) -> out.put(String.valueOf(k), v));
            return new FrontMatter(out, Optional.empty());
        } catch (JsonProcessingException e) {
            String why = e.getOriginalMessage() == null ? "" : e.getOriginalMessage().lines().findFirst().orElse("");
            return new FrontMatter(Map.of(), Optional.of("front matter is not valid YAML (" + why + ")"));
        }
    }

    /** Parsed front matter, or why it could not be read. */
    record FrontMatter(Map<String, Object> values, Optional<String> invalid) {
    }

    static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
