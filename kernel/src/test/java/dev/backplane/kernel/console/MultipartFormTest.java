package dev.backplane.kernel.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.backplane.kernel.errors.DomainException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MultipartFormTest {

    private static final String B = "----WebKitFormBoundaryX3b";

    private static byte[] body(String... parts) {
        StringBuilder sb = new StringBuilder();
        for (String p : parts) {
            sb.append("--").append(B).append("\r\n").append(p).append("\r\n");
        }
        return sb.append("--").append(B).append("--\r\n").toString().getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void fieldsAndFilesAreSeparated() {
        Map<String, String> fields = new LinkedHashMap<>();
        Map<String, MultipartForm.Upload> files = MultipartForm.parse(body(
                "Content-Disposition: form-data; name=\"_csrf\"\r\n\r\ntok",
                "Content-Disposition: form-data; name=\"product\"\r\n\r\nshop\r\nline two",
                "Content-Disposition: form-data; name=\"spec\"; filename=\"s.yaml\"\r\nContent-Type: application/yaml\r\n\r\n"
                        + "openapi: 3.0.3\r\ninfo: {title: é}",
                "Content-Disposition: form-data; name=\"empty\"; filename=\"\"\r\n\r\n"), B, fields);
        assertThat(fields).containsExactly(Map.entry("_csrf", "tok"), Map.entry("product", "shop\r\nline two"));
        assertThat(files).containsOnlyKeys("spec");
        assertThat(files.get("spec").name()).isEqualTo("s.yaml");
        assertThat(files.get("spec").content()).isEqualTo("openapi: 3.0.3\r\ninfo: {title: é}");
    }

    @Test
    void theBoundaryComesFromTheContentType() {
        assertThat(MultipartForm.boundary("multipart/form-data; boundary=" + B)).hasValue(B);
        assertThat(MultipartForm.boundary("multipart/form-data; boundary=\"quoted\"")).hasValue("quoted");
        assertThat(MultipartForm.boundary("application/x-www-form-urlencoded")).isEmpty();
        assertThat(MultipartForm.boundary(null)).isEmpty();
        assertThatThrownBy(() -> MultipartForm.boundary("multipart/form-data")).isInstanceOf(DomainException.class);
    }

    @Test
    void malformedBodiesAreA400NotA500() {
        for (String bad : new String[] {"", "no delimiter at all", "--" + B + "\r\nContent-Disposition: form-data; "
                + "name=\"x\"\r\n\r\nunterminated", "--" + B + "\r\nno blank line\r\n--" + B + "--",
                "--" + B + "\r\nContent-Disposition: form-data\r\n\r\nnameless\r\n--" + B + "--"}) {
            assertThatThrownBy(() -> MultipartForm.parse(bad.getBytes(StandardCharsets.UTF_8), B, new LinkedHashMap<>()))
                    .as(bad).isInstanceOfSatisfying(DomainException.class,
                            e -> assertThat(e.code()).isEqualTo("invalid_request"));
        }
    }
}
