package dev.backplane.plugins.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.backplane.plugin.api.Fingerprint;
import dev.backplane.plugin.api.ProductProbe;
import java.net.http.HttpHeaders;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ProductFingerprintTest {

    private static final Instant NOW = Instant.parse("2026-11-24T05:00:00Z");
    private static final ProductProbe HARBOR = new ProductProbe("/api/v2.0/systeminfo", "/harbor_version",
            Optional.of("Goharbor"), Map.of());

    private static VendorResponse answer(int status, String body) {
        return new VendorResponse(status, HttpHeaders.of(Map.of("Content-Type", List.of("application/json")),
                (a, b) -> true), body.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void theVersionIsReadAtThePointerAndTheProductConfirmed() {
        Fingerprint f = ProductFingerprint.of(HARBOR, answer(200, "{\"harbor_version\": \"v2.13.1-1234abcd\"}"),
                "harbor", NOW);
        assertThat(f.product()).contains("harbor");
        assertThat(f.version()).contains("v2.13.1-1234abcd");
        assertThat(f.vendor()).contains("Goharbor");
        assertThat(f.reachable()).isTrue();
        assertThat(f.probeMethod()).isEqualTo("GET /api/v2.0/systeminfo");
    }

    @Test
    void anotherAnswerIsAReachableSystemThatIsNotRecognised() {
        for (VendorResponse r : List.of(answer(404, "{}"), answer(200, "<html>hello</html>"),
                answer(200, "{\"version\": \"1.0\"}"), answer(200, "{\"harbor_version\": {\"nested\": 1}}"))) {
            Fingerprint f = ProductFingerprint.of(HARBOR, r, "harbor", NOW);
            assertThat(f.reachable()).isTrue();
            assertThat(f.product()).as(r.text()).isEmpty();
            assertThat(f.version()).isEmpty();
            assertThat(f.probeMethod()).contains("not recognised as harbor");
        }
    }

    @Test
    void theProductCheckMustHoldToo() {
        ProductProbe argo = new ProductProbe("/api/version", "/Version", Optional.empty(), Map.of("/GoVersion", "^go1\\."));
        assertThat(ProductFingerprint.of(argo, answer(200, "{\"Version\": \"v3.1.8\", \"GoVersion\": \"go1.24.6\"}"),
                "argocd", NOW).version()).contains("v3.1.8");
        Fingerprint other = ProductFingerprint.of(argo, answer(200, "{\"Version\": \"9.9\", \"GoVersion\": \"rustc\"}"),
                "argocd", NOW);
        assertThat(other.product()).isEmpty();
        assertThat(other.probeMethod()).contains("/GoVersion does not match");
    }
}
