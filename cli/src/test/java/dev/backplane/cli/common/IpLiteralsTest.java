package dev.backplane.cli.common;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class IpLiteralsTest {

    @ParameterizedTest
    @CsvSource({
        "127.0.0.1, /127.0.0.1",
        "0.0.0.0, /0.0.0.0",
        "255.255.255.255, /255.255.255.255",
        "::1, /0:0:0:0:0:0:0:1",
        "[::1], /0:0:0:0:0:0:0:1",
        "2001:db8::7, /2001:db8:0:0:0:0:0:7",
        "fe80:0:0:0:0:0:0:1, /fe80:0:0:0:0:0:0:1",
        "::ffff:10.0.0.1, /10.0.0.1",
        "1::, /1:0:0:0:0:0:0:0"
    })
    void parsesLiterals(String text, String expected) {
        assertThat(IpLiterals.parse(text)).hasValueSatisfying(a -> assertThat(a.toString()).isEqualTo(expected));
    }

    @ParameterizedTest
    @ValueSource(strings = {"999.1.1.1", "256.0.0.1", "1.2.3", "1.2.3.4.5", "01.2.3.4", "a:b", "1:2:3:4:5:6:7:8:9",
        "1::2::3", "::g", "localhost", "example.com", "", "12345::", "::1.2.3.999"})
    void refusesEverythingElse(String text) {
        assertThat(IpLiterals.parse(text)).isEmpty();
    }
}
