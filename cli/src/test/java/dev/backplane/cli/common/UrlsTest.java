package dev.backplane.cli.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.net.InetAddress;
import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class UrlsTest {

    private static CliException refused(String text, boolean allowHttp) {
        CliException e = catchThrowableOfType(CliException.class, () -> Urls.checkedBase(text, "backplane URL", allowHttp));
        assertThat(e).as("checkedBase(%s, allowHttp=%s) must be refused", text, allowHttp).isNotNull();
        assertThat(e.exitCode()).isEqualTo(ExitCodes.USAGE);
        return e;
    }

    @Test
    void httpsPassesUnchanged() {
        assertThat(Urls.checkedBase("https://backplane.example.com", "backplane URL", false))
                .isEqualTo(URI.create("https://backplane.example.com"));
    }

    @Test
    void httpsStripsTrailingSlashes() {
        assertThat(Urls.checkedBase("https://backplane.example.com/", "backplane URL", false))
                .hasToString("https://backplane.example.com");
        assertThat(Urls.checkedBase("https://backplane.example.com:8443///", "backplane URL", false))
                .hasToString("https://backplane.example.com:8443");
        assertThat(Urls.checkedBase("https://example.com/svc/", "backplane URL", false))
                .hasToString("https://example.com/svc");
    }

    @Test
    void surroundingWhitespaceIsIgnored() {
        assertThat(Urls.checkedBase("  https://example.com/ \n", "backplane URL", false))
                .hasToString("https://example.com");
    }

    @Test
    void schemeIsCaseInsensitive() {
        assertThat(Urls.checkedBase("HTTPS://example.com", "backplane URL", false).getHost()).isEqualTo("example.com");
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://localhost", "http://localhost:8080/", "http://LOCALHOST:8080",
        "http://127.0.0.1:8080", "http://127.0.0.1", "http://[::1]:8080", "http://[::1]"})
    void httpToLoopbackPassesWithAllowHttp(String url) {
        URI uri = Urls.checkedBase(url, "backplane URL", true);

        assertThat(uri.getScheme()).isEqualTo("http");
        assertThat(uri.toString()).doesNotEndWith("/");
        assertThat(uri).isEqualTo(URI.create(url.replaceAll("/+$", "")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://localhost:8080", "http://127.0.0.1:8080", "http://[::1]:8080"})
    void httpToLoopbackIsRefusedWithoutAllowHttp(String url) {
        CliException e = refused(url, false);

        assertThat(e.getMessage()).contains("--insecure-allow-http").contains("plain http");
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://example.com", "http://example.com:8080/", "http://10.0.0.1:8080",
        "http://192.168.1.20", "http://0.0.0.0:8080", "http://localhost.example.com",
        "http://localhost@example.com", "http://[2001:db8::1]:8080"})
    void httpToNonLoopbackIsRefusedEvenWithAllowHttp(String url) {
        CliException e = refused(url, true);

        assertThat(e.getMessage()).contains("refusing plain http://").contains("https://");
    }

    @Test
    void refusalOfNonLoopbackNamesTheUrlAndWhat() {
        CliException e = refused("http://example.com", false);

        assertThat(e.getMessage()).contains("backplane URL").contains("http://example.com");
    }

    @ParameterizedTest
    @ValueSource(strings = {"not a url", "https://exa mple.com", "http://[::1", "https://"})
    void nonUrlsAreRefused(String text) {
        CliException e = refused(text, true);

        assertThat(e.getMessage()).contains("backplane URL").contains("is not a URL");
    }

    @ParameterizedTest
    @ValueSource(strings = {"ftp://example.com", "ftp://localhost", "file:///etc/passwd", "example.com",
        "backplane", "", "https:///path", "mailto:ops@example.com"})
    void nonHttpOrHostlessIsRefused(String text) {
        CliException e = refused(text, true);

        assertThat(e.getMessage()).contains("must be an http(s) URL with a host");
    }

    @Test
    void isLoopbackRecognisesLoopbackForms() {
        assertThat(Urls.isLoopback("localhost")).isTrue();
        assertThat(Urls.isLoopback("svc.localhost")).isTrue();
        assertThat(Urls.isLoopback("127.0.0.1")).isTrue();
        assertThat(Urls.isLoopback("127.9.9.9")).isTrue();
        assertThat(Urls.isLoopback("[::1]")).isTrue();
        assertThat(Urls.isLoopback("::1")).isTrue();

        assertThat(Urls.isLoopback("example.com")).isFalse();
        assertThat(Urls.isLoopback("localhost.example.com")).isFalse();
        assertThat(Urls.isLoopback("10.0.0.1")).isFalse();
        assertThat(Urls.isLoopback("[2001:db8::1]")).isFalse();
    }

    /*
     * BUG (Urls.isLoopback, the InetAddress.getByName(h) branch): a host that is digits and dots but
     * not a valid IPv4 literal ("999.1.1.1", "127.0.0.1.", "256.0.0.1") is not rejected; the JDK
     * resolves it as a NAME through the system resolver (DNS), and whatever address comes back
     * decides whether plain http is allowed. Expected: such a host is not loopback, so
     * checkedBase("http://999.1.1.1", .., true) is refused (exit 2) with no lookup. The test proves the
     * lookup without the network: an override makes the name "999.1.1.1" resolve to 127.0.0.1, and
     * the buggy check then accepts plain http to it. Same root cause as ResolveOverrides.parse.
     */
    @Test
    void numericLookingNonLiteralHostIsNotLoopback() throws Exception {
        ResolveOverrides.install(List.of(new ResolveOverrides.Entry("999.1.1.1", 80,
                InetAddress.getByAddress(new byte[] {127, 0, 0, 1}))));

        assertThat(Urls.isLoopback("999.1.1.1")).isFalse();
        CliException e = refused("http://999.1.1.1:8080", true);
        assertThat(e.getMessage()).containsAnyOf("refusing plain http://", "must be an http(s) URL with a host");
    }
}
