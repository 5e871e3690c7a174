package dev.backplane.kernel.kb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.kb.KbService.Entry;
import dev.backplane.kernel.util.Digests;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The kb's rules that need no database: what re-adding an entry does, what an entry must be, and the snippet. */
class KbRulesTest {

    private static Entry stored(String body, Map<String, Object> meta) {
        return new Entry(UUID.randomUUID(), "pg-failover", body, meta, Instant.now(), Instant.now());
    }

    @Test
    void reAddingIsCreatedUpdatedOrUnchanged() {
        String hash = Digests.sha256Hex("promote the replica");
        assertThat(KbService.outcome(Optional.empty(), hash, Map.of())).isEqualTo("created");
        assertThat(KbService.outcome(Optional.of(stored("promote the replica", Map.of("team", "db"))), hash,
                Map.of("team", "db"))).isEqualTo("unchanged");
        assertThat(KbService.outcome(Optional.of(stored("promote the replica", Map.of("team", "db"))), hash,
                Map.of("team", "ops"))).as("metadata alone changes it").isEqualTo("updated");
        assertThat(KbService.outcome(Optional.of(stored("fail over by hand", Map.of())), hash, Map.of()))
                .isEqualTo("updated");
    }

    @Test
    void anEntryNeedsAValidSlugAndABodyWithinTheLimit() {
        KbService.validate("pg-failover", "x");
        KbService.validate("a", "é".repeat(KbService.MAX_BODY / 2));
        assertThat(code(() -> KbService.validate("-leading", "x"))).isEqualTo("invalid_slug");
        assertThat(code(() -> KbService.validate("Upper", "x"))).isEqualTo("invalid_slug");
        assertThat(code(() -> KbService.validate("a".repeat(129), "x"))).isEqualTo("invalid_slug");
        assertThat(code(() -> KbService.validate("ok", " \n"))).isEqualTo("invalid_body");
        assertThat(code(() -> KbService.validate("ok", "é".repeat(KbService.MAX_BODY / 2 + 1))))
                .as("the limit counts UTF-8 bytes").isEqualTo("invalid_body");
        assertThat(KbService.validSlug(null)).isFalse();
    }

    @Test
    void snippetsAreOneLineAndCut() {
        assertThat(KbSearch.snippet("  one\n\ttwo   three ")).isEqualTo("one two three");
        String cut = KbSearch.snippet("w ".repeat(300));
        assertThat(cut).hasSize(240).endsWith("...");
    }

    private static String code(Runnable r) {
        assertThatThrownBy(r::run).isInstanceOf(DomainException.class);
        try {
            r.run();
            return "none";
        } catch (DomainException e) {
            return e.code();
        }
    }
}
