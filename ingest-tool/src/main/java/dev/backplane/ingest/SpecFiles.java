package dev.backplane.ingest;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.ingest.SpecIngestException.Reason;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import io.swagger.v3.parser.util.DeserializationUtils;
import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitOption;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.commons.compress.archivers.ArchiveEntry;
import org.apache.commons.compress.archivers.ArchiveInputStream;
import org.apache.commons.compress.archivers.ArchiveStreamFactory;
import org.apache.commons.compress.compressors.CompressorException;
import org.apache.commons.compress.compressors.CompressorStreamFactory;

/**
 * The files of a multi-file spec — a root document whose {@code $ref}s name other files beside it
 * ({@code $ref: ./schemas/pet.yaml#/Pet}) — read from a directory or from an archive (zip, tar, tar.gz), and checked:
 * every ref between them stays among them. Nothing outside is ever read: a ref to a URL, an absolute path or a path
 * that climbs out of the files is refused with the ref and the file it is in named. Only {@code .json}, {@code
 * .yaml} and {@code .yml} files are taken; hidden files and directories are skipped and links not followed. The
 * files together stay under the same byte cap as one document, and under {@value #MAX_FILES} files.
 */
public final class SpecFiles {

    /** The most files a multi-file spec may have. */
    public static final int MAX_FILES = 10_000;
    private static final Pattern SPEC_FILE = Pattern.compile("(?i).+\\.(json|ya?ml)");
    /** A top-level openapi or swagger field, as YAML at the line's start or as a JSON member. */
    private static final Pattern ROOT_FIELD = Pattern.compile("(?m)^[\"']?(openapi|swagger)[\"']?\\s*:|\"(openapi|swagger)\"\\s*:");
    private static final Pattern ARCHIVE = Pattern.compile("(?i).+\\.(zip|tar|tgz|tar\\.gz)");

    private SpecFiles() {
    }

    /** Whether a file name is one of the archives this reads. */
    public static boolean isArchiveName(String name) {
        return ARCHIVE.matcher(name).matches();
    }

    /** The spec files under {@code dir}, by their path relative to it with {@code /} separators. */
    public static Map<String, String> fromDirectory(Path dir, long maxBytes) {
        String location = dir.toString();
        Map<String, String> files = new TreeMap<>();
        long[] total = {0};
        try (Stream<Path> walk = Files.walk(dir, 32, new FileVisitOption[0])) {
            for (Path p : walk.filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)).toList()) {
                String relative = dir.relativize(p).toString().replace('\\', '/');
                if (hidden(relative) || !SPEC_FILE.matcher(p.getFileName().toString()).matches()) {
                    continue;
                }
                total[0] += Files.size(p);
                if (total[0] > maxBytes) {
                    throw tooLarge(location, maxBytes);
                }
                add(location, files, relative, Files.readString(p, StandardCharsets.UTF_8));
            }
        }
        catch (IOException | java.io.UncheckedIOException e) {
            throw new SpecIngestException(Reason.SPEC_UNREADABLE, "cannot read spec directory " + location + ": " + e);
        }
        if (files.isEmpty()) {
            throw new SpecIngestException(Reason.SPEC_UNREADABLE, "spec directory " + location
                    + " has no .json, .yaml or .yml file");
        }
        return files;
    }

    /** The spec files in a zip, tar or tar.gz archive (told apart by their bytes, not their name). */
    public static Map<String, String> fromArchive(String location, byte[] archive, long maxBytes) {
        Map<String, String> files = new TreeMap<>();
        long total = 0;
        try (InputStream raw = decompressed(new BufferedInputStream(new ByteArrayInputStream(archive)));
             ArchiveInputStream<?> in = new ArchiveStreamFactory().createArchiveInputStream(
                     raw.markSupported() ? raw : new BufferedInputStream(raw))) {
            ArchiveEntry entry;
            byte[] buffer = new byte[64 * 1024];
            while ((entry = in.getNextEntry()) != null) {
                String name = entry.getName();
                if (entry.isDirectory() || !in.canReadEntryData(entry) || hidden(name)
                        || !SPEC_FILE.matcher(name.substring(name.lastIndexOf('/') + 1)).matches()) {
                    continue;
                }
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                int n;
                while ((n = in.read(buffer)) != -1) {
                    total += n;
                    if (total > maxBytes) {
                        throw tooLarge(location, maxBytes);
                    }
                    out.write(buffer, 0, n);
                }
                add(location, files, name, out.toString(StandardCharsets.UTF_8));
            }
        }
        catch (IOException e) { // ArchiveException is one
            throw new SpecIngestException(Reason.SPEC_UNREADABLE, location + " is not a zip, tar or tar.gz archive "
                    + "of spec files (" + ParseMessages.trim(String.valueOf(e.getMessage())) + ")");
        }
        if (files.isEmpty()) {
            throw new SpecIngestException(Reason.SPEC_UNREADABLE, "archive " + location
                    + " has no .json, .yaml or .yml file");
        }
        return files;
    }

    /**
     * The root document's path: {@code named} when given (it must be one of the files), else the one file with a
     * top-level {@code openapi} or {@code swagger} field.
     */
    static String root(String location, Map<String, String> files, String named) {
        if (named != null) {
            String path = normalise(location, named);
            if (!files.containsKey(path)) {
                throw new SpecIngestException(Reason.SPEC_UNREADABLE, "the root " + named + " is not among the "
                        + files.size() + " files of " + location);
            }
            return path;
        }
        List<String> roots = new ArrayList<>();
        for (Map.Entry<String, String> f : new TreeMap<>(files).entrySet()) {
            if (!ROOT_FIELD.matcher(f.getValue()).find()) {
                continue; // parsing thousands of files to find the one root would cost seconds
            }
            JsonNode tree = tree(f.getValue(), f.getKey());
            if (tree != null && tree.isObject() && (tree.has("openapi") || tree.has("swagger"))) {
                roots.add(f.getKey());
            }
        }
        if (roots.size() == 1) {
            return roots.getFirst();
        }
        throw new SpecIngestException(Reason.SPEC_INVALID, roots.isEmpty()
                ? location + " has no file with an 'openapi' or 'swagger' field (the root document)"
                : location + " has " + roots.size() + " root documents (" + String.join(", ", roots.subList(0,
                        Math.min(5, roots.size()))) + (roots.size() > 5 ? ", ..." : "") + "); name one (the REST "
                        + "field root, or --spec <dir>/<file>)");
    }

    /** The path {@code target} names relative to {@code from}'s directory, or null when it leaves the files. */
    static String resolveAmong(String from, String target) {
        return resolve(from, target);
    }

    private static String resolve(String from, String target) {
        if (target.startsWith("/") || target.startsWith("\\") || target.matches("(?i)[a-z][a-z0-9+.-]*:.*")) {
            return null;
        }
        String dir = from.contains("/") ? from.substring(0, from.lastIndexOf('/') + 1) : "";
        Deque<String> parts = new ArrayDeque<>();
        for (String part : (dir + target).split("/")) {
            if (part.isEmpty() || part.equals(".")) {
                continue;
            }
            if (part.equals("..")) {
                if (parts.isEmpty()) {
                    return null;
                }
                parts.removeLast();
            } else {
                parts.addLast(java.net.URLDecoder.decode(part, StandardCharsets.UTF_8));
            }
        }
        return String.join("/", parts);
    }

    private static void add(String location, Map<String, String> files, String name, String text) {
        if (files.size() >= MAX_FILES) {
            throw new SpecIngestException(Reason.SPEC_TOO_LARGE, location + " has more than " + MAX_FILES
                    + " spec files");
        }
        String path = normalise(location, name);
        files.put(path, text.startsWith("\uFEFF") ? text.substring(1) : text);
    }

    /** An entry's path as a relative path of plain segments; an absolute path or a climb out is refused. */
    static String normalise(String location, String name) {
        String path = resolve("", name.replace('\\', '/'));
        if (path == null || path.isEmpty()) {
            throw new SpecIngestException(Reason.SPEC_UNREADABLE, location + " has a file named '" + name
                    + "' outside its own directory; every file must be a relative path inside it");
        }
        return path;
    }

    private static boolean hidden(String path) {
        for (String part : path.split("/")) {
            if (part.startsWith(".") && !part.equals(".") && !part.equals("..")) {
                return true;
            }
        }
        return false;
    }

    private static JsonNode tree(String text, String name) {
        try {
            return DeserializationUtils.deserializeIntoTree(text, name, null, new SwaggerParseResult());
        }
        catch (RuntimeException e) {
            return null;
        }
    }

    private static InputStream decompressed(InputStream in) throws IOException {
        try {
            return new BufferedInputStream(new CompressorStreamFactory().createCompressorInputStream(in));
        }
        catch (CompressorException notCompressed) {
            return in; // zip and tar come as they are
        }
    }

    private static SpecIngestException tooLarge(String location, long maxBytes) {
        return new SpecIngestException(Reason.SPEC_TOO_LARGE, "the spec files of %s are over the cap of %d bytes "
                .formatted(location, maxBytes) + "together (raise it with --max-bytes)");
    }
}
