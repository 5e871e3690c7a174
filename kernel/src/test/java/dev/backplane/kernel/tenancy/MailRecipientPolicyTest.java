package dev.backplane.kernel.tenancy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.backplane.kernel.errors.DomainException;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Parsing an allowlist and the {@code permits} check dashboard notification mail will be gated by. */
class MailRecipientPolicyTest {

    private static MailRecipientPolicy policy(String allowlist) {
        return new MailRecipientPolicy(Optional.of(MailRecipientPolicy.parse(allowlist)), Optional.empty(),
                Optional.empty());
    }

    @Test
    void unsetAndEmptyDenyEveryone() {
        assertThat(MailRecipientPolicy.UNSET.permits("ops@example.com")).isFalse();
        assertThat(MailRecipientPolicy.UNSET.mode()).isEqualTo("unset");
        MailRecipientPolicy none = policy("");
        assertThat(none.mode()).isEqualTo("deny_all");
        assertThat(none.permits("ops@example.com")).isFalse();
        assertThat(policy(" , ").mode()).as("only blanks is the empty list").isEqualTo("deny_all");
    }

    @Test
    void addressesMatchExactlyIgnoringCase() {
        MailRecipientPolicy p = policy("Oncall@Example.com");
        assertThat(p.allowlist()).contains(List.of("oncall@example.com"));
        assertThat(p.permits("oncall@example.com")).isTrue();
        assertThat(p.permits("ONCALL@EXAMPLE.COM ")).isTrue();
        assertThat(p.permits("other@example.com")).isFalse();
        assertThat(p.permits("oncall@example.com.evil.net")).isFalse();
    }

    @Test
    void aDomainMatchesItselfAndADotDomainItsSubdomainsOnly() {
        MailRecipientPolicy domain = policy("example.com");
        assertThat(domain.permits("a@example.com")).isTrue();
        assertThat(domain.permits("a@mail.example.com")).isFalse();
        assertThat(domain.permits("a@badexample.com")).isFalse();
        MailRecipientPolicy sub = policy(".example.com");
        assertThat(sub.permits("a@mail.example.com")).isTrue();
        assertThat(sub.permits("a@deep.mail.example.com")).isTrue();
        assertThat(sub.permits("a@example.com")).isFalse();
        assertThat(sub.permits("a@badexample.com")).isFalse();
        assertThat(policy("example.com, .example.com").permits("a@x.example.com")).isTrue();
    }

    @Test
    void garbageRecipientsAreNeverPermitted() {
        MailRecipientPolicy p = policy("example.com");
        for (String bad : new String[] {null, "", "example.com", "@example.com", "a@b@example.com",
                "Alice <a@example.com>", "a@example.com, b@example.com", "a@example.com\nBcc: x@evil.net"}) {
            assertThat(p.permits(bad)).as(String.valueOf(bad)).isFalse();
        }
    }

    @Test
    void entriesAreTrimmedLowerCasedAndDeduplicatedInOrder() {
        assertThat(MailRecipientPolicy.parse(" b.example.org,A@Example.com,, a@example.com ,B.example.org,"))
                .containsExactly("b.example.org", "a@example.com");
    }

    @Test
    void theFirstBadEntryIsNamed() {
        for (String bad : new String[] {"localhost", "a@", "@x.com", "a b@x.com", "a@@x.com", "x..com", "-x.com",
                "x.com.", "10.0.0.1", "a@10.0.0.1", "*.example.com", "exämple.com", "a@b.com;c@d.com", "..example.com",
                "a@[127.0.0.1]", ".a..b@x.com"}) {
            assertThatThrownBy(() -> MailRecipientPolicy.parse("ok.example.com, " + bad)).as(bad)
                    .isInstanceOfSatisfying(DomainException.class, e -> {
                        assertThat(e.code()).isEqualTo("invalid_policy");
                        assertThat(e.getMessage()).contains("'" + bad.toLowerCase(java.util.Locale.ROOT) + "'");
                    });
        }
        assertThat(MailRecipientPolicy.parse("xn--exmple-cua.com")).containsExactly("xn--exmple-cua.com");
    }

    @Test
    void sizeLimitsHold() {
        String many = String.join(",", Collections.nCopies(1, "x.com"));
        assertThat(MailRecipientPolicy.parse(many)).hasSize(1);
        StringBuilder distinct = new StringBuilder();
        for (int i = 0; i <= MailRecipientPolicy.MAX_ENTRIES; i++) {
            distinct.append("d").append(i).append(".example.com,");
        }
        assertThatThrownBy(() -> MailRecipientPolicy.parse(distinct.toString())).hasMessageContaining("at most");
        String longLabel = "a".repeat(64) + ".com";
        assertThatThrownBy(() -> MailRecipientPolicy.parse(longLabel)).hasMessageContaining("not a domain label");
        assertThatThrownBy(() -> MailRecipientPolicy.parse("x".repeat(MailRecipientPolicy.MAX_TEXT_LENGTH + 1)))
                .hasMessageContaining("longer than");
        assertThatThrownBy(() -> MailRecipientPolicy.parse(null)).hasMessageContaining("required");
    }
}
