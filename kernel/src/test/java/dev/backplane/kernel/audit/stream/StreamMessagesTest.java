package dev.backplane.kernel.audit.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.backplane.kernel.audit.integrity.AuditChain;
import dev.backplane.kernel.audit.integrity.AuditRecord;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StreamMessagesTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    static AuditRecord row(String status, Map<String, Object> extras) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("id", "6f1c2d4e-8a7b-4c3d-9e0f-1a2b3c4d5e6f");
        c.put("tenant_id", "0b9f8e7d-6c5b-4a39-8271-605f4e3d2c1b");
        c.put("occurred_at", "2026-11-29T12:31:07.412305123Z");
        c.put("principal", "alice|ops");
        c.put("principal_kind", "human");
        c.put("op_class", "write");
        c.put("op_id", "k8s.scale");
        c.put("connector_id", "kubernetes");
        c.put("target", "prod=cluster");
        c.put("target_id", null);
        c.put("result_status", status);
        c.put("error_code", null);
        c.put("duration_ms", 182);
        c.put("session_id", null);
        c.put("parent_audit_id", null);
        c.put("work_ref", "CHG-1042\ninjected");
        c.put("params_hash", "9c11");
        c.put("approval_request_id", null);
        c.put("extras", extras);
        return new AuditRecord(c, 4121, HexFormat.of().parseHex("5e2fc0a1"), 918273);
    }

    @Test
    void aJsonRowIsTheChainedLinePlusTheRedeliveredFlag() throws Exception {
        AuditRecord row = row("ok", Map.of());
        Map<String, Object> json = StreamMessages.json(row, true);
        assertThat(json).containsEntry("redelivered", true).containsEntry("chain_pos", 918273L)
                .containsEntry("chain_hash", "5e2fc0a1").containsEntry("chain_seq", 4121L);
        json.remove("redelivered");
        assertThat(AuditRecord.fromLine(json)).as("without the flag it reads back as the row").isEqualTo(row);
    }

    @Test
    void aSyslogMessageIsRfc5424WithTheRowInItsStructuredData() throws Exception {
        String m = StreamMessages.syslog(row("denied", Map.of()), false, "kernel 1\u00e9", StreamMessages.Format.JSON);
        assertThat(m).startsWith("<109>1 2026-11-29T12:31:07.412305Z kernel1 svc-backplane - audit [svc@32473 "
                + "audit_id=\"6f1c2d4e-8a7b-4c3d-9e0f-1a2b3c4d5e6f\" tenant_id=\"0b9f8e7d-6c5b-4a39-8271-605f4e3d2c1b\" "
                + "chain_pos=\"918273\" chain_seq=\"4121\" redelivered=\"false\"] {");
        JsonNode payload = JSON.readTree(m.substring(m.indexOf("] ") + 2));
        assertThat(payload.path("id").asText()).isEqualTo("6f1c2d4e-8a7b-4c3d-9e0f-1a2b3c4d5e6f");
        assertThat(payload.path("redelivered").asBoolean()).isFalse();
        assertThat(m).doesNotContain("\n").as("a line break in a value stays escaped in JSON").contains("\\n");
        assertThat(StreamMessages.syslog(row("ok", Map.of()), true, null, StreamMessages.Format.JSON))
                .startsWith("<110>1 2026-11-29T12:31:07.412305Z - svc-backplane").contains("redelivered=\"true\"]");
        assertThat(StreamMessages.syslog(row("error", Map.of()), true, "h", StreamMessages.Format.JSON)).startsWith("<108>1 ");
    }

    @Test
    void structuredDataValuesEscapeQuoteBackslashAndBracket() {
        assertThat(StreamMessages.param("a\"b\\c]d")).isEqualTo("a\\\"b\\\\c\\]d");
    }

    @Test
    void framesCountOctetsNotCharacters() {
        byte[] framed = StreamMessages.frame("h\u00e9");
        assertThat(new String(framed, StandardCharsets.UTF_8)).isEqualTo("3 h\u00e9");
    }

    @Test
    void cefMapsTheRowAndEscapesHeaderAndExtensionValues() {
        String cef = CefFormat.format(row("denied", Map.of("why", "a=b")), true);
        assertThat(cef).startsWith("CEF:0|svc|backplane|1|k8s.scale|write k8s.scale denied|7|externalId=6f1c2d4e-")
                .contains(" rt=" + java.time.Instant.parse("2026-11-29T12:31:07.412Z").toEpochMilli() + " ",
                        " suser=alice|ops ", " dhost=prod\\=cluster ", " cs4Label=work_ref cs4=CHG-1042\\ninjected ",
                        " msg=" + CefFormat.extension(AuditChain.line(Map.of("why", "a=b"))) + " ",
                        " cn1Label=chain_pos cn1=918273 ", " svcChainHash=5e2fc0a1 ", " outcome=denied ")
                .endsWith("svcRedelivered=true")
                .doesNotContain("cs2Label", "reason=", "\n");
        assertThat(CefFormat.header("a|b\\c\nd")).isEqualTo("a\\|b\\\\c d");
        assertThat(CefFormat.format(row("ok", Map.of()), false)).contains("|3|").doesNotContain(" msg=");
    }

    @Test
    void theFormatSettingIsJsonOrCef() {
        assertThat(StreamMessages.Format.parse(" CEF ")).isEqualTo(StreamMessages.Format.CEF);
        assertThatThrownBy(() -> StreamMessages.Format.parse("xml")).hasMessageContaining("json or cef");
    }
}
