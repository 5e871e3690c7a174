package dev.backplane.plugins.dns;

import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.ErrorCode;
import dev.backplane.plugins.ssh.SshOutput;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Records as rows ({@code name, type, ttl, data}) from dig's answer lines, and how record data compares. */
final class ZoneRecords {

    private ZoneRecords() {
    }

    /**
     * The rows of dig's {@code +noall +answer} output; a failed transfer or query (dig prints it as a
     * {@code ;} comment, or exits non-zero) is a {@code connector_error} with dig's words.
     */
    static List<Map<String, Object>> rows(SshOutput out, String what) {
        List<String> comments = out.lines().stream().filter(l -> l.startsWith(";")).toList();
        if (!out.ok() || !comments.isEmpty()) {
            String why = comments.isEmpty() ? out.diagnostic() : String.join(" ", comments).replace(";", "").strip();
            throw new ConnectorException(ErrorCode.CONNECTOR_ERROR, what + " failed: " + why,
                    Map.of("exit_status", out.exitStatus()), null);
        }
        List<Map<String, Object>> rows = new ArrayList<>();
        for (String line : out.lines()) {
            String[] f = line.strip().split("\\s+", 5);
            if (f.length < 5) {
                continue;
            }
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("name", f[0].toLowerCase(Locale.ROOT));
            row.put("type", f[3]);
            row.put("ttl", Long.parseLong(f[1]));
            row.put("data", f[4]);
            rows.add(row);
        }
        return rows;
    }

    /** True when {@code row} holds {@code data} (already canonical, {@link DnsNames#data}) of {@code type}. */
    static boolean holds(Map<String, Object> row, String type, String data) {
        if (!type.equals(row.get("type"))) {
            return false;
        }
        String actual = String.valueOf(row.get("data"));
        return switch (type) {
            case "AAAA" -> Arrays.equals(DnsNames.ipv6Bytes(actual), DnsNames.ipv6Bytes(data));
            case "TXT" -> actual.replaceAll("^\"|\"$", "").equals(data);
            default -> actual.equalsIgnoreCase(data);
        };
    }
}
