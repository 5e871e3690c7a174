package dev.backplane.cli.governance;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.ExitCodes;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;

/**
 * Verifies an audit archive with nothing but its files (docs/operations/audit-log.md: the archive format):
 * the rows file's SHA-256 against the manifest, each tenant's chain from the manifest's {@code prev_hash}
 * (a row's link is SHA-256 of the previous link and the row's columns as compact JSON with sorted keys), the
 * sequence without gaps, and the counts and last links. The kernel writes archives with the same rule
 * ({@code ArchiveFiles}); a test verifies the kernel's archives with this class.
 */
final class ArchiveCheck {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final ObjectWriter CANONICAL = MAPPER.writer().with(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);
    private static final TypeReference<LinkedHashMap<String, Object>> MAP = new TypeReference<>() { };

    private ArchiveCheck() {
    }

    static JsonNode verify(Path manifestFile) {
        try {
            return run(manifestFile);
        } catch (IOException e) {
            throw new CliException(ExitCodes.FAILED, "cannot read the archive: " + e.getMessage());
        }
    }

    @SuppressWarnings("unchecked")
    private static JsonNode run(Path manifestFile) throws IOException {
        long started = System.nanoTime();
        Map<String, Object> manifest = MAPPER.readValue(Files.readString(manifestFile), MAP);
        Path rowsFile = manifestFile.resolveSibling(String.valueOf(manifest.get("file")));
        List<Map<String, Object>> problems = new ArrayList<>();
        String actual = sha256Of(rowsFile);
        if (!actual.equals(manifest.get("sha256"))) {
            problems.add(problem("corrupt_archive", 0, null, null, rowsFile.getFileName() + " has SHA-256 " + actual
                    + ", the manifest says " + manifest.get("sha256")));
        }
        Map<String, Map<String, Object>> tenants = (Map<String, Map<String, Object>>) manifest.getOrDefault("tenants", Map.of());
        Map<String, byte[]> previous = new LinkedHashMap<>();
        Map<String, Long> lastSeq = new LinkedHashMap<>();
        Map<String, String> lastTime = new LinkedHashMap<>();
        long rows = 0;
        try (BufferedReader in = new BufferedReader(new InputStreamReader(new GZIPInputStream(Files.newInputStream(rowsFile)),
                StandardCharsets.UTF_8))) {
            rows = check(in, tenants, previous, lastSeq, lastTime, problems);
        } catch (IOException | RuntimeException unreadable) {
            problems.add(problem("corrupt_archive", 0, null, null, rowsFile.getFileName() + " cannot be read: "
                    + unreadable.getMessage()));
        }
        finish(manifest, tenants, previous, lastSeq, rows, problems);
        double seconds = Math.max(1e-9, (System.nanoTime() - started) / 1e9);
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("name", manifest.get("name"));
        report.put("ok", problems.isEmpty());
        report.put("rows_checked", rows);
        report.put("rows_per_second", (long) (rows / seconds));
        report.put("problems", problems);
        return MAPPER.valueToTree(report);
    }

    private static long check(BufferedReader in, Map<String, Map<String, Object>> tenants, Map<String, byte[]> previous,
                              Map<String, Long> lastSeq, Map<String, String> lastTime, List<Map<String, Object>> problems)
            throws IOException {
        long rows = 0;
        {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                if (line.isBlank()) {
                    continue;
                }
                rows++;
                Map<String, Object> row = MAPPER.readValue(line, MAP);
                long seq = ((Number) row.remove("chain_seq")).longValue();
                Object hashText = row.remove("chain_hash");
                row.remove("chain_pos");
                if (seq == 0) {
                    continue;
                }
                String tenant = String.valueOf(row.get("tenant_id"));
                byte[] stored = HexFormat.of().parseHex(String.valueOf(hashText));
                if (!previous.containsKey(tenant)) {
                    Object prev = tenants.getOrDefault(tenant, Map.of()).get("prev_hash");
                    previous.put(tenant, prev == null ? null : HexFormat.of().parseHex((String) prev));
                } else if (seq != lastSeq.get(tenant) + 1) {
                    problems.add(problem("missing", seq, row.get("id"), row.get("occurred_at"), "rows " + (lastSeq.get(tenant) + 1)
                            + ".." + (seq - 1) + " of tenant " + tenant + " are not in the archive"));
                    previous.put(tenant, null);
                }
                byte[] prev = previous.get(tenant);
                if (prev != null) {
                    MessageDigest sha = sha256();
                    sha.update(prev);
                    sha.update(CANONICAL.writeValueAsBytes(row));
                    if (!Arrays.equals(sha.digest(), stored)) {
                        boolean backwards = lastTime.containsKey(tenant)
                                && String.valueOf(row.get("occurred_at")).compareTo(lastTime.get(tenant)) < 0;
                        problems.add(problem(backwards ? "reordered" : "altered", seq, row.get("id"), row.get("occurred_at"),
                                "the row's content does not match its link"));
                    }
                }
                previous.put(tenant, stored);
                lastSeq.put(tenant, seq);
                lastTime.put(tenant, String.valueOf(row.get("occurred_at")));
            }
        }
        return rows;
    }

    private static void finish(Map<String, Object> manifest, Map<String, Map<String, Object>> tenants,
                               Map<String, byte[]> previous, Map<String, Long> lastSeq, long rows,
                               List<Map<String, Object>> problems) {
        if (rows != ((Number) manifest.getOrDefault("row_count", -1)).longValue()) {
            problems.add(problem("missing", 0, null, null, "the archive holds " + rows + " rows, the manifest says "
                    + manifest.get("row_count")));
        }
        for (Map.Entry<String, Map<String, Object>> t : tenants.entrySet()) {
            byte[] last = previous.get(t.getKey());
            if (last == null || lastSeq.get(t.getKey()) != ((Number) t.getValue().get("last_seq")).longValue()
                    || !HexFormat.of().formatHex(last).equals(t.getValue().get("last_hash"))) {
                problems.add(problem("missing", ((Number) t.getValue().get("last_seq")).longValue(), null, null,
                        "tenant " + t.getKey() + "'s chain in the archive does not end where the manifest says"));
            }
        }
    }

    private static Map<String, Object> problem(String kind, long seq, Object auditId, Object at, String detail) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("kind", kind);
        p.put("seq", seq);
        p.put("audit_id", auditId);
        p.put("occurred_at", at);
        p.put("detail", detail);
        return p;
    }

    private static String sha256Of(Path file) throws IOException {
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
