package dev.backplane.kernel.audit.integrity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The chain's rule: canonical bytes independent of key order, a link per row, a line that reads back the same. */
class AuditChainTest {

    private static Map<String, Object> row(String principal, Map<String, Object> extras) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", "0b8c6d3e-2d1f-4f7a-9a51-8f0e7f4d2c11");
        m.put("tenant_id", "5a1e2b3c-4d5e-4f60-8a7b-9c0d1e2f3a4b");
        m.put("occurred_at", "2026-11-29T12:00:00.123456Z");
        m.put("principal", principal);
        m.put("duration_ms", 12);
        m.put("work_ref", null);
        m.put("extras", extras);
        return m;
    }

    @Test
    void theCanonicalFormSortsEveryObjectsKeysAndKeepsNulls() {
        Map<String, Object> a = row("alice", Map.of("b", 1, "a", Map.of("z", true, "y", "x")));
        Map<String, Object> reversed = new LinkedHashMap<>();
        new java.util.ArrayList<>(a.keySet()).reversed().forEach(k -> reversed.put(k, a.get(k)));
        assertThat(AuditChain.canonical(reversed)).isEqualTo(AuditChain.canonical(a));
        assertThat(new String(AuditChain.canonical(a), java.nio.charset.StandardCharsets.UTF_8))
                .startsWith("{\"duration_ms\":12,\"extras\":{\"a\":{\"y\":\"x\",\"z\":true},\"b\":1},\"id\":")
                .contains("\"work_ref\":null");
    }

    /** The direct writer and Jackson agree, byte for byte, on every kind of text, number, null and extras. */
    @Test
    void theDirectCanonicalWriterIsJacksons() {
        java.util.Random random = new java.util.Random(43);
        String[] samples = {"", "plain", "quote \" and \\ backslash", "tab\tnew\nline\r", "ctl \u0001\u001f\u007f",
                "ünïcødé ☃ 😀", "</script>", "slash / and \u2028"};
        for (int n = 0; n < 2000; n++) {
            Map<String, Object> row = new LinkedHashMap<>();
            for (String k : List.of("id", "tenant_id", "occurred_at", "principal", "principal_kind", "op_class", "op_id",
                    "connector_id", "target", "target_id", "result_status", "error_code", "session_id", "parent_audit_id",
                    "work_ref", "params_hash", "approval_request_id")) {
                row.put(k, random.nextInt(4) == 0 ? null : samples[random.nextInt(samples.length)] + random.nextInt(100));
            }
            row.put("duration_ms", random.nextBoolean() ? null : random.nextBoolean() ? random.nextInt() : (Object) random.nextLong());
            row.put("extras", random.nextBoolean() ? Map.of() : Map.of("z", samples[random.nextInt(samples.length)], "a",
                    List.of(1, 2.5, true), "m", Map.of("y", 1, "b", "c")));
            List<String> keys = new java.util.ArrayList<>(row.keySet());
            java.util.Collections.shuffle(keys, random);
            Map<String, Object> shuffled = new LinkedHashMap<>();
            keys.forEach(k -> shuffled.put(k, row.get(k)));
            assertThat(new String(AuditChain.canonical(shuffled), java.nio.charset.StandardCharsets.UTF_8))
                    .isEqualTo(new String(AuditChain.generic(row), java.nio.charset.StandardCharsets.UTF_8));
        }
    }

    @Test
    void eachLinkCoversThePreviousLinkAndTheRow() {
        byte[] first = AuditChain.link(AuditChain.GENESIS, row("alice", Map.of()));
        byte[] second = AuditChain.link(first, row("bob", Map.of()));
        assertThat(first).hasSize(32).isNotEqualTo(second);
        assertThat(AuditChain.link(first, row("bob", Map.of()))).isEqualTo(second);
        assertThat(AuditChain.link(first, row("mallory", Map.of()))).isNotEqualTo(second);
        assertThat(AuditChain.link(AuditChain.GENESIS, row("bob", Map.of()))).isNotEqualTo(second);
    }

    @Test
    void anArchiveLineReadsBackToTheSameRowAndLink() throws Exception {
        AuditRecord r = new AuditRecord(row("alice", Map.of("ratio", 0.5, "n", 3, "nested", Map.of("k", "v"))), 7,
                new byte[] {1, 2, 3}, 42);
        AuditRecord back = AuditRecord.fromLine(AuditChain.parseLine(AuditChain.line(r.line())));
        assertThat(back).isEqualTo(r);
        assertThat(AuditChain.link(AuditChain.GENESIS, back.content()))
                .isEqualTo(AuditChain.link(AuditChain.GENESIS, r.content()));
        assertThat(back.id()).isEqualTo(UUID.fromString("0b8c6d3e-2d1f-4f7a-9a51-8f0e7f4d2c11"));
        assertThat(back.occurredAt()).isEqualTo(Instant.parse("2026-11-29T12:00:00.123456Z"));
    }

    @Test
    void aSealVerifiesOnlyWithItsKeyAndItsHead() {
        String secret = Base64.getEncoder().encodeToString(new byte[32]);
        SealKey key = SealKey.of(secret).orElseThrow();
        UUID tenant = UUID.randomUUID();
        Instant at = Instant.parse("2026-11-29T12:00:00Z");
        byte[] mac = key.mac(tenant, 5, new byte[] {9}, at);
        assertThat(key.verifies(tenant, 5, new byte[] {9}, at, mac)).isTrue();
        assertThat(key.verifies(tenant, 6, new byte[] {9}, at, mac)).isFalse();
        assertThat(key.verifies(tenant, 5, new byte[] {8}, at, mac)).isFalse();
        byte[] other = new byte[32];
        other[0] = 1;
        assertThat(SealKey.of(Base64.getEncoder().encodeToString(other)).orElseThrow().verifies(tenant, 5, new byte[] {9},
                at, mac)).isFalse();
        assertThat(key.toString()).doesNotContain(secret).contains(key.id());
        assertThat(SealKey.of("")).isEmpty();
        assertThatThrownBy(() -> SealKey.of(Base64.getEncoder().encodeToString(new byte[16])))
                .hasMessageContaining("at least 32 bytes");
        assertThatThrownBy(() -> SealKey.of("not base64 !")).hasMessageContaining("not base64")
                .hasMessageNotContaining("not base64 !");
    }
}
