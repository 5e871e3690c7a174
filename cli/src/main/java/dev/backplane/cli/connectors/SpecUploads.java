package dev.backplane.cli.connectors;

import dev.backplane.cli.common.BuildInfo;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.RequestBody;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What {@code svc connector ingest --spec} uploads: one document (a file or an http(s) URL, read here), or a
 * multi-file spec — a directory, a zip, tar or tar.gz archive, or a file whose relative {@code $ref}s name files
 * beside it (then its directory goes, with it as the root). The backplane follows refs between those files only.
 */
final class SpecUploads {

    /** One spec as uploaded: exactly one of content, files and archive_base64. */
    @RequestBody
    record SpecUpload(String name, String content, List<SpecFile> files, String root, String archiveBase64) {
    }

    /** A multi-file spec's file: its path relative to the spec's directory. */
    @RequestBody
    record SpecFile(String path, String content) {
    }

    private static final Pattern SPEC_FILE = Pattern.compile("(?i).+\\.(json|ya?ml)");
    private static final Pattern ARCHIVE = Pattern.compile("(?i).+\\.(zip|tar|tgz|tar\\.gz)");
    /** A {@code $ref} to another document by a relative path (not {@code #/...}, not a URL). */
    private static final Pattern RELATIVE_REF = Pattern.compile(
            "[\"']?\\$ref[\"']?\\s*:\\s*[\"']?(?!#)(?![a-zA-Z][a-zA-Z0-9+.-]*:)[^\"'\\s,}#]+");
    private static final int MAX_FILES = 10_000;
    private static final long MAX_BYTES = 256L * 1024 * 1024;

    private SpecUploads() {
    }

    static SpecUpload of(String spec) {
        if (spec.startsWith("http://") || spec.startsWith("https://")) {
            return new SpecUpload(spec, download(spec), null, null, null);
        }
        Path p = Path.of(spec.startsWith("@") ? spec.substring(1) : spec);
        String name = p.getFileName() == null ? spec : p.getFileName().toString();
        try {
            if (Files.isDirectory(p)) {
                return new SpecUpload(spec, null, files(spec, p), null, null);
            }
            if (ARCHIVE.matcher(name).matches()) {
                byte[] archive = Files.readAllBytes(p);
                return new SpecUpload(spec, null, null, null, Base64.getEncoder().encodeToString(archive));
            }
            String text = Files.readString(p);
            Path dir = p.toAbsolutePath().getParent();
            if (dir != null && RELATIVE_REF.matcher(text).find()) {
                // a split spec: the files beside it go too, this one their root
                return new SpecUpload(spec, null, files(spec, dir), name, null);
            }
            return new SpecUpload(spec, text, null, null, null);
        } catch (IOException | UncheckedIOException e) {
            throw CliException.usage("--spec " + spec + ": cannot read it: " + e.getMessage());
        }
    }

    /** The .json, .yaml and .yml files under {@code dir} (hidden ones skipped, links not followed). */
    private static List<SpecFile> files(String spec, Path dir) throws IOException {
        List<SpecFile> out = new ArrayList<>();
        long bytes = 0;
        try (Stream<Path> walk = Files.walk(dir, 32)) {
            for (Path f : walk.filter(f -> Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS)).sorted().toList()) {
                String relative = dir.relativize(f).toString().replace('\\', '/');
                if (relative.startsWith(".") || relative.contains("/.")
                        || !SPEC_FILE.matcher(f.getFileName().toString()).matches()) {
                    continue;
                }
                bytes += Files.size(f);
                if (out.size() == MAX_FILES || bytes > MAX_BYTES) {
                    throw CliException.usage("--spec " + spec + ": " + dir + " holds more than " + MAX_FILES
                            + " spec files or " + MAX_BYTES / (1024 * 1024) + " MiB; give the spec's own directory");
                }
                out.add(new SpecFile(relative, Files.readString(f)));
            }
        }
        if (out.isEmpty()) {
            throw CliException.usage("--spec " + spec + ": " + dir + " has no .json, .yaml or .yml file");
        }
        return out;
    }

    private static String download(String spec) {
        try (HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NORMAL)
                .connectTimeout(Duration.ofSeconds(10)).build()) {
            HttpResponse<String> res = http.send(HttpRequest.newBuilder(URI.create(spec))
                    .timeout(Duration.ofSeconds(60)).header("User-Agent", BuildInfo.userAgent()).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (res.statusCode() / 100 != 2) {
                throw CliException.failed("--spec " + spec + ": HTTP " + res.statusCode());
            }
            return res.body();
        } catch (IOException e) {
            throw CliException.failed("--spec " + spec + ": cannot fetch it: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw CliException.failed("--spec " + spec + ": interrupted");
        }
    }
}
