package dev.backplane.kernel.audit.stream;

import dev.backplane.kernel.audit.integrity.AuditChain;
import dev.backplane.kernel.audit.integrity.AuditRecord;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Map;

/**
 * What the stream sends for one audit row. As JSON: the row's {@link AuditRecord#line()} (every column and the
 * chain fields, so a SIEM can check the chain) plus {@code redelivered}, which the chain does not cover. As syslog:
 * an RFC 5424 message whose structured data names the row ({@code [svc@32473 audit_id tenant_id chain_pos chain_seq
 * redelivered]}) and whose message is that JSON or a CEF record; framed for TLS transport by octet counting
 * (RFC 5425, RFC 6587 3.4.1). docs/operations/audit-stream.md shows both.
 */
final class StreamMessages {

    /** Syslog facility 13, "log audit". */
    static final int FACILITY = 13;
    static final String APP_NAME = "svc-backplane";
    static final String MSG_ID = "audit";
    /** The SD-ID: 32473 is the enterprise number RFC 5612 sets aside for documentation and examples. */
    static final String SD_ID = "svc@32473";

    /** The payload of a syslog message. */
    enum Format {
        JSON, CEF;

        static Format parse(String value) {
            return switch (value.strip().toLowerCase(Locale.ROOT)) {
                case "json" -> JSON;
                case "cef" -> CEF;
                default -> throw new IllegalArgumentException("audit.stream.syslog.format must be json or cef, not '"
                        + value + "'");
            };
        }
    }

    private StreamMessages() {
    }

    /** The row as a stream carries it in JSON: its line and whether it may have been delivered before. */
    static Map<String, Object> json(AuditRecord row, boolean redelivered) {
        Map<String, Object> line = row.line();
        line.put("redelivered", redelivered);
        return line;
    }

    /** One RFC 5424 message (without its frame). */
    static String syslog(AuditRecord row, boolean redelivered, String hostname, Format format) {
        Map<String, Object> line = row.line();
        String status = String.valueOf(line.get("result_status"));
        Instant at = Instant.parse((String) line.get("occurred_at")).truncatedTo(ChronoUnit.MICROS);
        String payload = format == Format.CEF ? CefFormat.format(row, redelivered) : AuditChain.line(json(row, redelivered));
        return "<" + (FACILITY * 8 + severity(status)) + ">1 " + at + " " + hostname(hostname) + " " + APP_NAME + " - "
                + MSG_ID + " [" + SD_ID + " audit_id=\"" + param(line.get("id")) + "\" tenant_id=\""
                + param(line.get("tenant_id")) + "\" chain_pos=\"" + line.get("chain_pos") + "\" chain_seq=\""
                + line.get("chain_seq") + "\" redelivered=\"" + redelivered + "\"] " + payload;
    }

    /** RFC 5425 octet counting: the message's length in bytes, a space, the message. */
    static byte[] frame(String message) {
        byte[] body = message.getBytes(StandardCharsets.UTF_8);
        byte[] prefix = (body.length + " ").getBytes(StandardCharsets.US_ASCII);
        byte[] out = new byte[prefix.length + body.length];
        System.arraycopy(prefix, 0, out, 0, prefix.length);
        System.arraycopy(body, 0, out, prefix.length, body.length);
        return out;
    }

    /** Syslog severity: informational, notice for a denial, warning for an error. */
    static int severity(String status) {
        return switch (status) {
            case "denied" -> 5;
            case "error" -> 4;
            default -> 6;
        };
    }

    /** A HOSTNAME field: printable US-ASCII without spaces, at most 255 characters, "-" when unknown. */
    static String hostname(String name) {
        if (name == null) {
            return "-";
        }
        StringBuilder out = new StringBuilder();
        for (char ch : name.toCharArray()) {
            if (ch > 32 && ch < 127 && out.length() < 255) {
                out.append(ch);
            }
        }
        return out.isEmpty() ? "-" : out.toString();
    }

    /** An SD-PARAM value: quote, backslash and closing bracket escaped (RFC 5424 6.3.3). */
    static String param(Object value) {
        return value == null ? "" : value.toString().replace("\\", "\\\\").replace("\"", "\\\"").replace("]", "\\]");
    }
}
