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
     */
    record RawSpec(String location, String displayName, URI baseUri, String text, long bytes, String sha256) {
        RawSpec {
            requireNonNull(location, "location is null");
            requireNonNull(displayName, "displayName is null");
            requireNonNull(text, "text is null");
            requireNonNull(sha256, "sha256 is null");
        }
    }

    RawSpec read(SpecSource source) {
        String location = source.location();
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
        return raw(location, path.toAbsolutePath().toUri(), readFile(location, path));
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
        return new RawSpec(location, displayName(location), baseUri, text, bytes.length, sha256(bytes));
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
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        }
        catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
