package dev.backplane.ingest;

import static java.util.Objects.requireNonNull;

import dev.backplane.ingest.SpecIngestException.Reason;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** Reads a spec's bytes from a file, a {@code file:} or {@code http(s):} URL, or given text, never past the size cap. */
final class SpecReader {

    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);

    private final long maxBytes;

    SpecReader(long maxBytes) {
        this.maxBytes = maxBytes;
    }

    /**
     * The bytes read and where they came from.
     *
     * @param baseUri the document's URI when it has one (used to resolve relative refs when allowed), else null
     * @param text the document, or a multi-file spec's root document
     * @param bytes the size of the document, or of all a multi-file spec's files
     * @param sha256 over the document's bytes, or over every file's path and text
     * @param files a multi-file spec's files, the root among them (relative path → text); empty for one document
     * @param root the root's path among {@code files}; null for one document
     */
    record RawSpec(String location, String displayName, URI baseUri, String text, long bytes, String sha256,
                   Map<String, String> files, String root) {
        RawSpec {
            requireNonNull(location, "location is null");
            requireNonNull(displayName, "displayName is null");
            requireNonNull(text, "text is null");
            requireNonNull(sha256, "sha256 is null");
            files = Map.copyOf(files);
        }

        boolean multiFile() {
            return root != null;
        }
    }

    RawSpec read(SpecSource source) {
        String location = source.location();
        if (source.files() != null) {
            return multiFile(location, source.files(), source.root());
        }
        if (source.content() != null) {
            return raw(location, null, source.content().getBytes(StandardCharsets.UTF_8));
        }
        String lower = location.toLowerCase(Locale.ROOT);
        if (lower.startsWith("http://") || lower.startsWith("https://")) {
            return raw(location, URI.create(location), download(location));
        }
        Path path;
        try {
            path = lower.startsWith("file:") ? Path.of(URI.create(location)) : Path.of(location);
        }
        catch (IllegalArgumentException e) {
            throw new SpecIngestException(Reason.SPEC_UNREADABLE, "cannot read spec " + location + ": " + e.getMessage());
        }
        if (Files.isDirectory(path)) {
            return multiFile(location, SpecFiles.fromDirectory(path, maxBytes), null);
        }
        if (SpecFiles.isArchiveName(path.getFileName() == null ? "" : path.getFileName().toString())) {
            return multiFile(location, SpecFiles.fromArchive(location, readFile(location, path), maxBytes), null);
        }
        return raw(location, path.toAbsolutePath().toUri(), readFile(location, path));
    }

    /** A multi-file spec: its root found (or checked); {@link SpecBundler} follows and checks the refs between files. */
    private RawSpec multiFile(String location, Map<String, String> given, String named) {
        Map<String, String> files = new TreeMap<>();
        for (Map.Entry<String, String> f : given.entrySet()) {
            if (files.put(SpecFiles.normalise(location, f.getKey()), f.getValue()) != null) {
                throw new SpecIngestException(Reason.SPEC_UNREADABLE, location + " has the file " + f.getKey()
                        + " twice");
            }
        }
        String root = SpecFiles.root(location, files, named);
        long bytes = 0;
        MessageDigest digest = sha256();
        for (Map.Entry<String, String> f : new TreeMap<>(files).entrySet()) {
            byte[] text = f.getValue().getBytes(StandardCharsets.UTF_8);
            bytes += text.length;
            digest.update(f.getKey().getBytes(StandardCharsets.UTF_8));
            digest.update((byte) 0);
            digest.update(text);
            digest.update((byte) 0);
        }
        if (bytes > maxBytes) {
            throw tooLarge(location, bytes + " bytes in " + files.size() + " files");
        }
        return new RawSpec(location, displayName(location) + "/" + root, null, files.get(root), bytes,
                HexFormat.of().formatHex(digest.digest()), files, root);
    }

    private byte[] readFile(String location, Path path) {
        try {
            long size = Files.size(path);
            if (size > maxBytes) {
                throw tooLarge(location, size + " bytes");
            }
            try (InputStream in = Files.newInputStream(path)) {
                return readCapped(location, in);
            }
        }
        catch (NoSuchFileException e) {
            throw new SpecIngestException(Reason.SPEC_UNREADABLE, "cannot read spec " + location + ": no such file");
        }
        catch (IOException e) {
            throw new SpecIngestException(Reason.SPEC_UNREADABLE, "cannot read spec " + location + ": " + e);
        }
    }

    private byte[] download(String location) {
        HttpClient client = HttpClient.newBuilder()
                .connectTimeout(CONNECT_TIMEOUT)
                .followRedirects(HttpClient.Redirect.NORMAL)
                .build();
        HttpRequest request = HttpRequest.newBuilder(URI.create(location)).timeout(REQUEST_TIMEOUT).GET().build();
        try {
            HttpResponse<InputStream> response = client.send(request, HttpResponse.BodyHandlers.ofInputStream());
            try (InputStream in = response.body()) {
                if (response.statusCode() / 100 != 2) {
                    throw new SpecIngestException(Reason.SPEC_UNREADABLE,
                            "cannot read spec " + location + ": HTTP " + response.statusCode());
                }
                long declared = response.headers().firstValueAsLong("Content-Length").orElse(-1);
                if (declared > maxBytes) {
                    throw tooLarge(location, declared + " bytes");
                }
                return readCapped(location, in);
            }
        }
        catch (IOException e) {
            throw new SpecIngestException(Reason.SPEC_UNREADABLE, "cannot read spec " + location + ": " + e);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SpecIngestException(Reason.SPEC_UNREADABLE, "interrupted while reading spec " + location);
        }
        catch (IllegalArgumentException e) {
            throw new SpecIngestException(Reason.SPEC_UNREADABLE, "cannot read spec " + location + ": " + e.getMessage());
        }
    }

    /** Stops at the cap: a stream that goes on is refused without being read to its end. */
    private byte[] readCapped(String location, InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[64 * 1024];
        long total = 0;
        int n;
        while ((n = in.read(buffer)) != -1) {
            total += n;
            if (total > maxBytes) {
                throw tooLarge(location, "more than " + maxBytes + " bytes");
            }
            out.write(buffer, 0, n);
        }
        return out.toByteArray();
    }

    private RawSpec raw(String location, URI baseUri, byte[] bytes) {
        if (bytes.length > maxBytes) {
            throw tooLarge(location, bytes.length + " bytes");
        }
        String text = new String(bytes, StandardCharsets.UTF_8);
        if (text.startsWith("\uFEFF")) {
            text = text.substring(1);
        }
        return new RawSpec(location, displayName(location), baseUri, text, bytes.length, sha256(bytes), Map.of(), null);
    }

    private SpecIngestException tooLarge(String location, String size) {
        return new SpecIngestException(Reason.SPEC_TOO_LARGE,
                "spec %s is %s, over the cap of %d bytes (raise it with --max-bytes)".formatted(location, size, maxBytes));
    }

    /** The last path element: what messages name the spec by. */
    private static String displayName(String location) {
        String trimmed = location.replaceAll("[?#].*$", "");
        int slash = Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\'));
        String name = slash >= 0 ? trimmed.substring(slash + 1) : trimmed;
        return name.isEmpty() ? location : name;
    }

    private static String sha256(byte[] bytes) {
        return HexFormat.of().formatHex(sha256().digest(bytes));
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        }
        catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
