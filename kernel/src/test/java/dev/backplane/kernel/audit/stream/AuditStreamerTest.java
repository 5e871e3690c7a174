package dev.backplane.kernel.audit.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The sinks' configuration, checked at start (no database needed: a bad setting fails before any is read). */
class AuditStreamerTest {

    @Test
    void aSyslogAddressNeedsHostAndPort() {
        for (String bad : new String[] {"syslog.example.com", "syslog.example.com:", ":6514", "h:x", "h:70000"}) {
            assertThatThrownBy(() -> new SyslogSink(bad, Optional.empty(), StreamMessages.Format.JSON, "h",
                    Duration.ofSeconds(1))).as(bad).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("audit.stream.syslog.address");
        }
        assertThat(new SyslogSink("[::1]:6514", Optional.empty(), StreamMessages.Format.JSON, "h", Duration.ofSeconds(1))
                .describe()).isEqualTo("syslog receiver ::1:6514");
    }

    @Test
    void aCaFileThatIsNotPemIsRefused() throws Exception {
        Path notPem = java.nio.file.Files.createTempFile("svc-not-pem", ".pem");
        try {
            java.nio.file.Files.writeString(notPem, "hello");
            assertThatThrownBy(() -> new SyslogSink("h:1", Optional.of(notPem), StreamMessages.Format.JSON, "h",
                    Duration.ofSeconds(1))).hasMessageContaining("audit.stream.syslog.ca-file");
        } finally {
            java.nio.file.Files.delete(notPem);
        }
    }

    @Test
    void theHttpSinkNamesItsEndpointWithoutQueryUserInfoOrToken() {
        HttpSink sink = new HttpSink(URI.create("https://user:pw@siem.example.com:8443/in?key=abc"),
                Optional.of("tok-123"), sslDefault(),
                Duration.ofSeconds(1));
        assertThat(sink.describe()).isEqualTo("HTTP receiver https://siem.example.com:8443/in");
        assertThatThrownBy(() -> new HttpSink(URI.create("ftp://x/"), Optional.empty(), sslDefault(),
                Duration.ofSeconds(1))).hasMessageContaining("http or https");
        AuditStreamer.Settings settings = new AuditStreamer.Settings(Optional.empty(), Optional.empty(), "json",
                Optional.of(URI.create("https://siem.example.com/in?key=abc")), Optional.of("tok-123"), 10, "h",
                Duration.ofSeconds(1));
        assertThat(settings.toString()).doesNotContain("tok-123", "abc").contains("token set");
    }

    private static javax.net.ssl.SSLContext sslDefault() {
        try {
            return javax.net.ssl.SSLContext.getDefault();
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
