package dev.backplane.kernel.audit.stream;

import dev.backplane.kernel.audit.integrity.AuditChain;
import dev.backplane.kernel.audit.integrity.AuditRecord;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An audit row as an ArcSight Common Event Format (CEF:0) record, for SIEMs that parse CEF out of syslog. The
 * mapping (docs/operations/audit-stream.md lists it): externalId audit id, rt occurred_at (epoch ms), suser
 * principal, cs1 principal_kind, cat op_class, act op_id, destinationServiceName connector_id, dhost target,
 * cs2 target_id, outcome result_status, reason error_code, cn3 duration_ms, cs3 tenant_id, cs4 work_ref,
 * cs5 session_id, cs6 parent_audit_id, flexString1 approval_request_id, flexString2 params_hash, msg extras
 * (compact JSON), cn1 chain_pos, cn2 chain_seq, svcChainHash chain_hash (hex), svcRedelivered. The header's
 * signature id is op_id, its name {@code <op_class> <op_id> <result_status>}.
 */
final class CefFormat {

    static final String VENDOR = "svc";
    static final String PRODUCT = "backplane";
    static final String VERSION = "1";

    private CefFormat() {
    }

    static String format(AuditRecord row, boolean redelivered) {
        Map<String, Object> c = row.content();
        String status = string(c.get("result_status"));
        StringBuilder out = new StringBuilder("CEF:0|").append(VENDOR).append('|').append(PRODUCT).append('|')
                .append(VERSION).append('|').append(header(string(c.get("op_id")))).append('|')
                .append(header(c.get("op_class") + " " + c.get("op_id") + " " + status)).append('|')
                .append(severity(status)).append('|');
        Map<String, Object> ext = new LinkedHashMap<>();
        ext.put("externalId", c.get("id"));
        ext.put("rt", Instant.parse(string(c.get("occurred_at"))).toEpochMilli());
        ext.put("suser", c.get("principal"));
        labelled(ext, "cs1", "principal_kind", c);
        ext.put("cat", c.get("op_class"));
        ext.put("act", c.get("op_id"));
        ext.put("destinationServiceName", c.get("connector_id"));
        ext.put("dhost", c.get("target"));
        labelled(ext, "cs2", "target_id", c);
        ext.put("outcome", status);
        ext.put("reason", c.get("error_code"));
        labelled(ext, "cn3", "duration_ms", c);
        labelled(ext, "cs3", "tenant_id", c);
        labelled(ext, "cs4", "work_ref", c);
        labelled(ext, "cs5", "session_id", c);
        labelled(ext, "cs6", "parent_audit_id", c);
        labelled(ext, "flexString1", "approval_request_id", c);
        labelled(ext, "flexString2", "params_hash", c);
        Object extras = c.get("extras");
        if (extras instanceof Map<?, ?> m && !m.isEmpty()) {
            @SuppressWarnings("unchecked")
            Map<String, Object> map = (Map<String, Object>) m;
            ext.put("msg", AuditChain.line(map));
        }
        Map<String, Object> line = row.line();
        ext.put("cn1Label", "chain_pos");
        ext.put("cn1", line.get("chain_pos"));
        ext.put("cn2Label", "chain_seq");
        ext.put("cn2", line.get("chain_seq"));
        ext.put("svcChainHash", line.get("chain_hash"));
        ext.put("svcRedelivered", redelivered);
        String sep = "";
        for (Map.Entry<String, Object> e : ext.entrySet()) {
            if (e.getValue() != null) {
                out.append(sep).append(e.getKey()).append('=').append(extension(e.getValue().toString()));
                sep = " ";
            }
        }
        return out.toString();
    }

    /** A labelled custom field: only when the row has a value, with its label naming the audit column. */
    private static void labelled(Map<String, Object> ext, String key, String column, Map<String, Object> content) {
        Object value = content.get(column);
        if (value != null) {
            ext.put(key + "Label", column);
            ext.put(key, value);
        }
    }

    /** CEF severity 0..10: a denial is what a SOC looks at first, then errors. */
    static int severity(String status) {
        return switch (status == null ? "" : status) {
            case "denied" -> 7;
            case "error" -> 5;
            case "awaiting_approval" -> 4;
            default -> 3;
        };
    }

    /** A header field: backslash and pipe escaped, no line breaks. */
    static String header(String value) {
        return value == null ? "" : value.replace("\\", "\\\\").replace("|", "\\|").replace("\r", " ").replace("\n", " ");
    }

    /** An extension value: backslash and equals sign escaped, line breaks as \n and \r. */
    static String extension(String value) {
        return value.replace("\\", "\\\\").replace("=", "\\=").replace("\r", "\\r").replace("\n", "\\n");
    }

    private static String string(Object value) {
        return value == null ? null : value.toString();
    }
}
