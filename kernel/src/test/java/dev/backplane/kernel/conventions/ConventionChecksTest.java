package dev.backplane.kernel.conventions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.backplane.kernel.errors.DomainException;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/** The checks a convention write passes, and the search excerpt, without a database. */
class ConventionChecksTest {

    private static final JsonNodeFactory N = JsonNodeFactory.instance;

    private static void refused(ThrowingCallable call, String code, String field) {
        assertThatThrownBy(call).isInstanceOfSatisfying(DomainException.class, e -> {
            assertThat(e.code()).isEqualTo(code);
            assertThat(e.extras()).containsEntry("field", field);
        });
    }

    @Test
    void slugs() {
        assertThat(ConventionChecks.slug("a")).isEqualTo("a");
        assertThat(ConventionChecks.slug("0" + "-".repeat(127))).hasSize(128);
        for (String bad : new String[] {null, "", "-a", "A", "a_b", "a".repeat(129), "a b"}) {
            refused(() -> ConventionChecks.slug(bad), "invalid_slug", "slug");
        }
    }

    @Test
    void titlesAreOneStrippedLine() {
        assertThat(ConventionChecks.title("  Deploys on Fridays ")).isEqualTo("Deploys on Fridays");
        assertThat(ConventionChecks.title("t".repeat(200))).hasSize(200);
        for (String bad : new String[] {" ", "t".repeat(201), "a\nb", "a\tb", "a\u007fb"}) {
            refused(() -> ConventionChecks.title(bad), "invalid_convention", "title");
        }
    }

    @Test
    void kindsPrioritiesAndRequiredFields() {
        assertThat(ConventionChecks.kind("reference")).isEqualTo("reference");
        assertThatThrownBy(() -> ConventionChecks.kind("Operational")).isInstanceOfSatisfying(DomainException.class,
                e -> assertThat(e.extras()).containsEntry("valid_kinds", Conventions.KINDS));
        assertThat(ConventionChecks.priority(N.numberNode(32767))).isEqualTo(32767);
        assertThat(ConventionChecks.priority(N.numberNode(-32768))).isEqualTo(-32768);
        refused(() -> ConventionChecks.priority(N.numberNode(32768)), "invalid_convention", "priority");
        refused(() -> ConventionChecks.priority(N.numberNode(1.5)), "invalid_convention", "priority");
        refused(() -> ConventionChecks.priority(N.textNode("1")), "invalid_convention", "priority");
        refused(() -> ConventionChecks.required(null, "title"), "invalid_convention", "title");
        assertThat(ConventionChecks.required("", "body")).as("present, checked by its own rule").isEmpty();
    }

    @Test
    void bodiesAreNotBlankAndAtMost64KiBOfUtf8() {
        assertThat(ConventionChecks.body("x".repeat(Conventions.MAX_BODY_BYTES))).hasSize(65536);
        refused(() -> ConventionChecks.body(" \n "), "invalid_convention", "body");
        refused(() -> ConventionChecks.body("x".repeat(Conventions.MAX_BODY_BYTES + 1)), "invalid_convention", "body");
        // counted in UTF-8 bytes, not characters: 21846 three-byte characters are 65538 bytes
        refused(() -> ConventionChecks.body("€".repeat(21846)), "invalid_convention", "body");
        assertThat(ConventionChecks.body("€".repeat(21845))).hasSize(21845);
    }

    @Test
    void aConflictNamesBothVersions() {
        DomainException e = ConventionChecks.conflict("deploys", 3, 4);
        assertThat(e.code()).isEqualTo("version_conflict");
        assertThat(e.extras()).containsEntry("expected_version", 3).containsEntry("current_version", 4);
    }

    @Test
    void snippetsAndIndexText() {
        assertThat(ConventionSearch.snippet("  a\n\n b\tc  ")).isEqualTo("a b c");
        assertThat(ConventionSearch.snippet("w".repeat(200))).hasSize(200);
        assertThat(ConventionSearch.snippet("w".repeat(201))).hasSize(200).endsWith("w...");
        assertThat(ConventionSearch.indexText("rollback-first", "Title", "Body")).isEqualTo("Title\nrollback first\nBody");
    }
}
