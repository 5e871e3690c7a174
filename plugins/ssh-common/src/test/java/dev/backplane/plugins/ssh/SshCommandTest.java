package dev.backplane.plugins.ssh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.ErrorCode;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SshCommandTest {

    @Test
    void wordsThatNeedNoQuotingMakeTheLine() {
        SshCommand c = new SshCommand("dig", List.of("@127.0.0.1", "-p", "53", "+noall", "AXFR", "example.com."));
        assertThat(c.line()).isEqualTo("dig @127.0.0.1 -p 53 +noall AXFR example.com.");
        assertThat(c.allowedBy(Set.of("dig"))).isSameAs(c);
    }

    @Test
    void aWordThatWouldNeedQuotingIsRefusedNotEscaped() {
        for (String bad : List.of("a b", "a;b", "$(id)", "`id`", "a'b", "a\"b", "a\nb", "a|b", "a&b", "a>b", "a<b",
                "a*b", "a?b", "a\\b", "a{b}", "a#b", "a~b", "", "é")) {
            assertThatThrownBy(() -> new SshCommand("dig", List.of(bad))).as(bad)
                    .isInstanceOfSatisfying(ConnectorException.class,
                            e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_PARAMS));
        }
        assertThat(SshCommand.isSafeWord("/etc/bind/named.conf")).isTrue();
    }

    @Test
    void standardInputIsPrintableAsciiLinesOnly() {
        assertThat(new SshCommand("nsupdate", List.of(), Optional.of("zone a.\nsend\n")).stdin()).isPresent();
        assertThatThrownBy(() -> new SshCommand("nsupdate", List.of(), Optional.of("zone a.\u0000\n")))
                .isInstanceOf(ConnectorException.class);
        assertThatThrownBy(() -> new SshCommand("nsupdate", List.of(), Optional.of("a\rb")))
                .isInstanceOf(ConnectorException.class);
    }

    @Test
    void aProgramOutsideTheAllowlistIsAProgrammingError() {
        assertThatThrownBy(() -> new SshCommand("rm", List.of("-rf", "/")).allowedBy(Set.of("dig")))
                .isInstanceOf(IllegalStateException.class);
    }
}
