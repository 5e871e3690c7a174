package dev.backplane.kernel.kb;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.backplane.kernel.util.Digests;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The files of a kb ingest: Markdown and text below a directory (hidden files and directories
 * skipped, links not followed into directories), each turned into a slug, a body and metadata from
 * its front matter. A file that cannot become an entry is a per-file error, never the run's.
 */
final class KbFiles {

    static final Set<String> EXTENSIONS = Set.of("md", "markdown", "txt");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    /** A file ready to add, or the reason it cannot be. */
    sealed interface Prepared {
        String path();

        /** Slug, body and metadata (front matter plus {@code source}). */
        record Entry(String path, String slug, String body, Map<String, Object> metadata) implements Prepared {
        }

        record Failed(String path, String slug, String error) implements Prepared {
        }
    }

    private KbFiles() {
    }

    /** Candidate files below {@code dir}, sorted by path; stops after {@code max + 1}. */
    static List<Path> walk(Path dir, int max) throws IOException {
        List<Path> out = new ArrayList<>();
        Files.walkFileTree(dir, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes attrs) {
                return !d.equals(dir) && hidden(d) ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path f, BasicFileAttributes attrs) {
                if (!hidden(f) && EXTENSIONS.contains(extension(f)) && (attrs.isRegularFile() || attrs.isSymbolicLink())) {
                    out.add(f);
                }
                return out.size() > max ? FileVisitResult.TERMINATE : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path f, IOException e) {
                return FileVisitResult.CONTINUE;
            }
        });
        out.sort(null);
        return out;
    }

    /** Reads and parses one file; {@code relative} uses '/' and is what the slug is made from. */
    static Prepared prepare(IngestRoot.Folder folder, Path file, String relative, String source) {
        String slug = slug(relative);
        if (Files.isSymbolicLink(file) && (!folder.contains(file) || !Files.isRegularFile(file))) {
            return new Prepared.Failed(relative, slug, "symbolic link to a place outside this tenant's kb ingest "
                    + "folder or not a file: skipped");
        }
        byte[] bytes;
        try {
            if (Files.size(file) > KbService.MAX_BODY + 64 * 1024) {
                return new Prepared.Failed(relative, slug, "file exceeds " + KbService.MAX_BODY + " bytes");
            }
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            return new Prepared.Failed(relative, slug, "cannot read: " + e.getMessage());
        }
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            return new Prepared.Failed(relative, slug, "not UTF-8 text");
        }
        if (text.indexOf('\0') >= 0) {
            return new Prepared.Failed(relative, slug, "binary file (contains NUL bytes)");
        }
        text = text.replace("\r\n", "\n").replaceFirst("^\uFEFF", "");
        Map<String, Object> meta = new LinkedHashMap<>();
        String body = text;
        if (text.startsWith("---\n")) {
            List<String> lines = text.lines().toList();
            int close = 1;
            while (close < lines.size() && !lines.get(close).strip().equals("---") && !lines.get(close).strip().equals("...")) {
                close++;
            }
            if (close == lines.size()) {
                return new Prepared.Failed(relative, slug, "front matter opened with '---' is not closed");
            }
            String front = String.join("\n", lines.subList(1, close));
            try {
                Object parsed = front.isBlank() ? null : YAML.readValue(front + "\n", Object.class);
                if (parsed instanceof Map<?, ?> m) {
                    m.forEach((k, v) -> meta.put(String.valueOf(k), v));
                } else if (parsed != null) {
                    return new Prepared.Failed(relative, slug, "front matter is not a mapping of key: value lines");
                }
            } catch (IOException e) {
                return new Prepared.Failed(relative, slug, "front matter is not valid YAML: "
                        + e.getMessage().lines().findFirst().orElse(""));
            }
            body = String.join("\n", lines.subList(close + 1, lines.size()));
        }
        Object override = meta.remove("slug");
        if (override != null) {
            slug = String.valueOf(override).trim();
        }
        if (!KbService.validSlug(slug)) {
            return new Prepared.Failed(relative, slug, "slug '" + slug + "' is not valid (1-128 lower-case letters, "
                    + "digits, '.', '_', '-')");
        }
        body = body.strip();
        if (body.isEmpty()) {
            return new Prepared.Failed(relative, slug, "empty body");
        }
        meta.put("source", source);
        return new Prepared.Entry(relative, slug, body, meta);
    }

    /**
     * The slug of a relative path: extension dropped, accents stripped, lower case, every run of
     * characters other than letters, digits, '.' and '_' (the '/' between directories included) one
     * '-'; over 128 characters it is cut and keeps a short hash of the path so it stays unique.
     */
    static String slug(String relative) {
        String stem = relative.replaceFirst("\\.[A-Za-z]+$", "");
        String s = Normalizer.normalize(stem, Normalizer.Form.NFD).replaceAll("\\p{M}", "").toLowerCase(Locale.ROOT)
                .replaceAll("[^a-z0-9._]+", "-").replaceAll("^[^a-z0-9]+", "").replaceAll("[^a-z0-9]+$", "");
        if (s.length() > 128) {
            s = s.substring(0, 119).replaceAll("[^a-z0-9]+$", "") + "-" + Digests.sha256Hex(relative).substring(0, 8);
        }
        return s;
    }

    private static boolean hidden(Path p) {
        return p.getFileName() != null && p.getFileName().toString().startsWith(".");
    }

    private static String extension(Path p) {
        String name = p.getFileName().toString();
        int dot = name.lastIndexOf('.');
        return dot < 0 ? "" : name.substring(dot + 1).toLowerCase(Locale.ROOT);
    }
}
