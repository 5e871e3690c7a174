package dev.backplane.kernel.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.backplane.kernel.errors.DomainException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class AuditExportTest {

    @Test
    void cellsAreQuotedAsRfc4180AndNeverAFormula() {
        assertThat(AuditExport.cell("plain")).isEqualTo("plain");
        assertThat(AuditExport.cell("a,b")).isEqualTo("\"a,b\"");
        assertThat(AuditExport.cell("say \"hi\"")).isEqualTo("\"say \"\"hi\"\"\"");
        assertThat(AuditExport.cell("two\nlines")).isEqualTo("\"two\nlines\"");
        for (String formula : List.of("=HYPERLINK(\"http://x\")", "+1", "-1+2", "@SUM(A1)", "\tx")) {
            assertThat(AuditExport.cell(formula)).as(formula).doesNotStartWith("=").doesNotStartWith("+")
                    .doesNotStartWith("-").doesNotStartWith("@").contains("'");
        }
        assertThat(AuditExport.cell("")).isEmpty();
    }

    @Test
    void csvHasTheHeaderAndOneLinePerRowAndJsonTheRows() {
        AuditQueries.Row row = new AuditQueries.Row(UUID.randomUUID(), Instant.parse("2026-11-30T06:00:00Z"), "alice",
                "human", "write", "demo.item2.delete", Optional.of("demo-2.x"), Optional.of("web1"), "ok",
                Optional.empty(), Optional.of(12), Optional.empty(), Optional.empty(), Optional.of("CHG-1,2"),
                Optional.empty(), Optional.empty(), Map.of("note", "x"));
        String csv = new String(AuditExport.CSV.write(List.of(row, row)), StandardCharsets.UTF_8);
        String[] lines = csv.split("\r\n");
        assertThat(lines).hasSize(3);
        assertThat(lines[0]).isEqualTo(String.join(",", AuditExport.COLUMNS));
        assertThat(lines[1]).startsWith(row.auditId() + ",2026-11-30T06:00:00Z,alice,human,write,demo.item2.delete,")
                .contains(",\"CHG-1,2\",", ",12,", "\"{\"\"note\"\":\"\"x\"\"}\"");
        assertThat(new String(AuditExport.JSON.write(List.of(row)), StandardCharsets.UTF_8))
                .startsWith("[{").contains("\"op_id\":\"demo.item2.delete\"");
    }

    @Test
    void anExportReadsPageAfterPageUpToItsBound() {
        AuditQueries.Row row = new AuditQueries.Row(UUID.randomUUID(), Instant.now(), "p", "human", "read", "x",
                Optional.empty(), Optional.empty(), "ok", Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Map.of());
        List<Optional<String>> asked = new ArrayList<>();
        List<AuditQueries.Row> rows = AuditExport.CSV.collect(cursor -> {
            asked.add(cursor);
            return new AuditQueries.Page(java.util.Collections.nCopies(1000, row), Optional.of("c" + asked.size()));
        });
        assertThat(rows).hasSize(AuditExport.MAX_ROWS);
        assertThat(asked).hasSize(10).startsWith(Optional.empty(), Optional.of("c1"));
        assertThatThrownBy(() -> AuditExport.of("xml")).isInstanceOfSatisfying(DomainException.class,
                e -> assertThat(e.code()).isEqualTo("invalid_request"));
    }
}
