package dev.backplane.kernel.audit.archive;

import dev.backplane.kernel.audit.integrity.AuditChain;
import dev.backplane.kernel.audit.integrity.AuditRecord;
import dev.backplane.kernel.audit.integrity.VerifyReport.Kind;
import dev.backplane.kernel.audit.integrity.VerifyReport.Problem;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.DigestInputStream;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * The archive's file format, written and verified without the database. An archive is two files in the archive
 * directory: {@code audit-<name>.jsonl.gz}, one row per line ({@link AuditRecord#line()}: the row's columns and
 * its chain_seq, chain_hash and chain_pos), each tenant's chain in order, then rows that were never chained;
 * and {@code audit-<name>.manifest.json}: format, partition, time range, row count, the SHA-256 and size of
 * the {@code .jsonl.gz}, and per tenant its rows, first and last chain position, the link before its first row
 * ({@code prev_hash}, when known) and its first and last links.
 */
public final class ArchiveFiles {

    public static final String FORMAT = "svc-audit-archive/1";

    private ArchiveFiles() {
    }

    public static Path rows(Path dir, String name) {
        return dir.resolve("audit-" + name + ".jsonl.gz");
    }

    public static Path manifest(Path dir, String name) {
        return dir.resolve("audit-" + name + ".manifest.json");
    }

    /** What writing an archive produced: its manifest. */
    public interface Writer extends AutoCloseable {
        void write(AuditRecord row) throws IOException;

        /** Finishes the files (moved into place only now) and returns the manifest. */
        Map<String, Object> finish(Map<String, Object> header) throws IOException;

        @Override
        void close() throws IOException;
    }

    /**
     * Starts writing archive {@code name} in {@code dir}; {@code previousLink} gives the link before a tenant's
     * first row in this archive (its row {@code first_seq - 1}, from the log or an earlier archive).
     */
    public static Writer writer(Path dir, String name, java.util.function.Function<AuditRecord, Optional<byte[]>> previousLink)
            throws IOException {
        Files.createDirectories(dir);
        Path tmp = Files.createTempFile(dir, ".audit-" + name, ".tmp");
        MessageDigest sha = sha256();
        OutputStream file = Files.newOutputStream(tmp);
        DigestOutputStream digest = new DigestOutputStream(file, sha);
        BufferedWriter out = new BufferedWriter(new OutputStreamWriter(new GZIPOutputStream(digest, 1 << 16),
                StandardCharsets.UTF_8), 1 << 16);
        Map<String, Map<String, Object>> tenants = new LinkedHashMap<>();
        long[] rows = {0};
        long[] unchained = {0};
        return new Writer() {
            @Override
            public void write(AuditRecord row) throws IOException {
                out.write(AuditChain.line(row.line()));
                out.write('\n');
                rows[0]++;
                if (row.chainSeq() == 0) {
                    unchained[0]++;
                    return;
                }
                String hash = HexFormat.of().formatHex(row.chainHash());
                Map<String, Object> t = tenants.computeIfAbsent(row.tenantId().toString(), k -> {
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("rows", 0L);
                    m.put("first_seq", row.chainSeq());
                    m.put("prev_hash", row.chainSeq() == 1 ? HexFormat.of().formatHex(AuditChain.GENESIS)
                            : previousLink.apply(row).map(HexFormat.of()::formatHex).orElse(null));
                    m.put("first_hash", hash);
                    return m;
                });
                t.put("rows", (Long) t.get("rows") + 1);
                t.put("last_seq", row.chainSeq());
                t.put("last_hash", hash);
            }

            @Override
            public Map<String, Object> finish(Map<String, Object> header) throws IOException {
                out.close();
                Files.move(tmp, rows(dir, name), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("format", FORMAT);
                m.put("name", name);
                m.putAll(header);
                m.put("row_count", rows[0]);
                m.put("unchained_rows", unchained[0]);
                m.put("file", rows(dir, name).getFileName().toString());
                m.put("sha256", HexFormat.of().formatHex(sha.digest()));
                m.put("bytes", Files.size(rows(dir, name)));
                m.put("tenants", tenants);
                Path mtmp = Files.createTempFile(dir, ".audit-" + name, ".manifest.tmp");
                Files.writeString(mtmp, AuditChain.line(m) + "\n");
                Files.move(mtmp, manifest(dir, name), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                return m;
            }

            @Override
            public void close() throws IOException {
                out.close();
                Files.deleteIfExists(tmp);
            }
        };
    }

    /** Reads a manifest. */
    public static Map<String, Object> readManifest(Path manifest) throws IOException {
        return AuditChain.parseLine(Files.readString(manifest));
    }

    /** Streams the rows of an archive file. */
    public static void readRows(Path rows, Consumer<AuditRecord> each) throws IOException {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(new GZIPInputStream(Files.newInputStream(rows),
                1 << 16), StandardCharsets.UTF_8), 1 << 16)) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                if (!line.isBlank()) {
                    each.accept(AuditRecord.fromLine(AuditChain.parseLine(line)));
                }
            }
        }
    }

    /** What verifying an archive found. */
    public record Report(String name, boolean ok, long rows, long rowsPerSecond, List<Problem> problems) {
    }

    /**
     * Verifies an archive with nothing but its two files: the file's SHA-256 and size against the manifest, every
     * tenant's links from its {@code prev_hash}, the sequence without gaps, and the counts and last links.
     */
    public static Report verify(Path manifestFile) throws IOException {
        long started = System.nanoTime();
        Map<String, Object> manifest = readManifest(manifestFile);
        String name = String.valueOf(manifest.get("name"));
        Path rowsFile = manifestFile.resolveSibling(String.valueOf(manifest.get("file")));
        List<Problem> problems = new ArrayList<>();
        String actual = sha256Of(rowsFile);
        if (!actual.equals(manifest.get("sha256"))) {
            problems.add(new Problem(Kind.CORRUPT_ARCHIVE, 0, Optional.empty(), Optional.empty(), rowsFile.getFileName()
                    + " has SHA-256 " + actual + ", the manifest says " + manifest.get("sha256")));
        }
        @SuppressWarnings("unchecked")
        Map<String, Map<String, Object>> tenants = (Map<String, Map<String, Object>>) manifest.getOrDefault("tenants", Map.of());
        Map<String, Object[]> state = new LinkedHashMap<>(); // tenant -> {previous link, previous record, rows}
        long[] rows = {0};
        try {
            readRows(rowsFile, r -> {
                rows[0]++;
                if (r.chainSeq() == 0) {
                    return;
                }
                String t = r.tenantId().toString();
                Object[] s = state.computeIfAbsent(t, k -> {
                    Object prev = tenants.getOrDefault(t, Map.of()).get("prev_hash");
                    return new Object[] {prev == null ? null : HexFormat.of().parseHex((String) prev), null, 0L};
                });
                AuditRecord before = (AuditRecord) s[1];
                byte[] previous = (byte[]) s[0];
                if (before != null && r.chainSeq() != before.chainSeq() + 1) {
                    add(problems, new Problem(Kind.MISSING, r.chainSeq(), Optional.of(r.id()), Optional.of(r.occurredAt()),
                            "rows " + (before.chainSeq() + 1) + ".." + (r.chainSeq() - 1) + " of tenant " + t
                                    + " are not in the archive"));
                    previous = null;
                }
                if (previous != null) {
                    byte[] expected = AuditChain.link(previous, r.content());
                    if (!Arrays.equals(expected, r.chainHash())) {
                        boolean backwards = before != null && r.occurredAt().isBefore(before.occurredAt());
                        add(problems, new Problem(backwards ? Kind.REORDERED : Kind.ALTERED, r.chainSeq(), Optional.of(r.id()),
                                Optional.of(r.occurredAt()), "the row's content does not match its link"));
                    }
                }
                s[0] = r.chainHash();
                s[1] = r;
                s[2] = (Long) s[2] + 1;
            });
        } catch (IOException | RuntimeException unreadable) {
            add(problems, new Problem(Kind.CORRUPT_ARCHIVE, 0, Optional.empty(), Optional.empty(), rowsFile.getFileName()
                    + " cannot be read past row " + rows[0] + ": " + unreadable.getMessage()));
        }
        if (rows[0] != ((Number) manifest.getOrDefault("row_count", -1)).longValue()) {
            add(problems, new Problem(Kind.MISSING, 0, Optional.empty(), Optional.empty(), "the archive holds " + rows[0]
                    + " rows, the manifest says " + manifest.get("row_count")));
        }
        tenants.forEach((t, m) -> {
            Object[] s = state.get(t);
            AuditRecord last = s == null ? null : (AuditRecord) s[1];
            if (last == null || last.chainSeq() != ((Number) m.get("last_seq")).longValue()
                    || !HexFormat.of().formatHex(last.chainHash()).equals(m.get("last_hash"))) {
                add(problems, new Problem(Kind.MISSING, ((Number) m.get("last_seq")).longValue(), Optional.empty(),
                        Optional.empty(), "tenant " + t + "'s chain in the archive does not end where the manifest says"));
            }
        });
        double seconds = Math.max(1e-9, (System.nanoTime() - started) / 1e9);
        return new Report(name, problems.isEmpty(), rows[0], (long) (rows[0] / seconds), List.copyOf(problems));
    }

    private static void add(List<Problem> problems, Problem p) {
        if (problems.size() < dev.backplane.kernel.audit.integrity.VerifyReport.MAX_PROBLEMS) {
            problems.add(p);
        }
    }

    static String sha256Of(Path file) throws IOException {
        MessageDigest sha = sha256();
        try (InputStream in = new DigestInputStream(Files.newInputStream(file), sha)) {
            in.transferTo(OutputStream.nullOutputStream());
        }
        return HexFormat.of().formatHex(sha.digest());
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
