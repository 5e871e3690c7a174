package dev.backplane.kernel.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import dev.backplane.kernel.errors.DomainException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ConsoleFormsTest {

    @Test
    void urlEncodedFieldsAreDecodedAndTheFirstValueWins() {
        assertThat(ConsoleForms.urlEncoded("_csrf=a%2Bb&slug=x+y&slug=other&flag&body=%E2%82%AC%0A"))
                .containsExactly(entry("_csrf", "a+b"),
                        entry("slug", "x y"),
                        entry("flag", ""),
                        entry("body", "€\n"));
        assertThat(ConsoleForms.urlEncoded("")).isEmpty();
        assertThat(ConsoleForms.urlEncoded("a=1=2")).containsEntry("a", "1=2");
    }

    @Test
    void aMultipartFormCarriesUploadsWithTheirFileNames() {
        String body = "--b\r\nContent-Disposition: form-data; name=\"_csrf\"\r\n\r\nt\r\n"
                + "--b\r\nContent-Disposition: form-data; name=\"spec\"; filename=\"api.yaml\"\r\n"
                + "Content-Type: text/yaml\r\n\r\nopenapi: 3.1.0\r\n--b--\r\n";
        assertThat(ConsoleForms.decode(body.getBytes(StandardCharsets.UTF_8), Optional.of("b")))
                .containsEntry("_csrf", "t").containsEntry("spec", "openapi: 3.1.0")
                .containsEntry("spec.filename", "api.yaml");
        assertThat(ConsoleForms.decode("a=1&a=2".getBytes(StandardCharsets.UTF_8), Optional.empty()))
                .containsExactly(entry("a", "1"));
    }

    @Test
    void anUndecodableFormIsABadRequest() {
        assertThatThrownBy(() -> ConsoleForms.urlEncoded("slug=%zz"))
                .isInstanceOfSatisfying(DomainException.class, e -> assertThat(e.code()).isEqualTo("invalid_request"));
    }

    @Test
    void pageNumbersAreBoundedAndDurationsReadAsPeopleSayThem() {
        assertThat(ConsoleForms.pageNumber("3")).isEqualTo(3);
        assertThat(ConsoleForms.pageNumber("0")).isEqualTo(1);
        assertThat(ConsoleForms.pageNumber("-4")).isEqualTo(1);
        assertThat(ConsoleForms.pageNumber("x")).isEqualTo(1);
        assertThat(ConsoleForms.pageNumber("99999999999")).isEqualTo(1);
        assertThat(ConsoleForms.pageNumber("999999")).isEqualTo(ConsoleForms.MAX_PAGE);
        assertThat(ConsoleForms.relative(java.time.Duration.ofSeconds(2))).isEqualTo("just now");
        assertThat(ConsoleForms.relative(java.time.Duration.ofMinutes(5))).isEqualTo("in 5 min");
        assertThat(ConsoleForms.relative(java.time.Duration.ofHours(-3))).isEqualTo("3 h ago");
        assertThat(ConsoleForms.relative(java.time.Duration.ofDays(4))).isEqualTo("in 4 d");
        assertThatThrownBy(() -> ConsoleForms.checkLength("reason", "x".repeat(11), 10))
                .isInstanceOfSatisfying(DomainException.class, e -> assertThat(e.code()).isEqualTo("invalid_request"));
    }
}
