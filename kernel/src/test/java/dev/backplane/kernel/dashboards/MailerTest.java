package dev.backplane.kernel.dashboards;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.icegreen.greenmail.configuration.GreenMailConfiguration;
import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.GreenMailUtil;
import com.icegreen.greenmail.util.ServerSetup;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The SMTP sender against a real SMTP server on loopback (GreenMail) that requires a login. */
class MailerTest {

    private static final String PASSWORD = "smtp-secret-7f3a";
    private GreenMail smtp;

    @BeforeEach
    void start() {
        smtp = new GreenMail(new ServerSetup(0, "127.0.0.1", ServerSetup.PROTOCOL_SMTP).dynamicPort())
                .withConfiguration(GreenMailConfiguration.aConfig().withUser("mailer", PASSWORD));
        smtp.start();
    }

    @AfterEach
    void stop() {
        smtp.stop();
    }

    private Mailer mailer(String tls, int port, java.util.function.Supplier<String> password) {
        return new Mailer(new Mailer.Settings("127.0.0.1", port, tls, "svc@backplane.test", Optional.of("mailer"), password,
                Duration.ofSeconds(5)));
    }

    @Test
    void sendsWithTheLoginWhosePasswordItReadsAtSendTime() throws Exception {
        mailer("none", smtp.getSmtp().getPort(), () -> PASSWORD).send(List.of("a@example.com", "b@example.com"), "subject",
                "body text");
        assertThat(smtp.waitForIncomingEmail(5000, 2)).isTrue();
        assertThat(smtp.getReceivedMessages()[0].getSubject()).isEqualTo("subject");
        assertThat(GreenMailUtil.getBody(smtp.getReceivedMessages()[0])).contains("body text");
    }

    @Test
    void failuresAreMailExceptionsThatNeverCarryThePassword() throws Exception {
        assertThatThrownBy(() -> mailer("none", smtp.getSmtp().getPort(), () -> "wrong-" + PASSWORD)
                .send(List.of("a@example.com"), "s", "b")).isInstanceOf(Mailer.MailException.class)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain(PASSWORD));
        assertThatThrownBy(() -> mailer("starttls", smtp.getSmtp().getPort(), () -> PASSWORD)
                .send(List.of("a@example.com"), "s", "b")).as("STARTTLS is required, not opportunistic")
                .isInstanceOf(Mailer.MailException.class);
        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        assertThatThrownBy(() -> mailer("none", closed, () -> PASSWORD).send(List.of("a@example.com"), "s", "b"))
                .isInstanceOf(Mailer.MailException.class).hasMessageContaining("127.0.0.1:" + closed);
        assertThatThrownBy(() -> mailer("none", smtp.getSmtp().getPort(), () -> {
            throw new IllegalStateException("no secret at platform/mail/smtp");
        }).send(List.of("a@example.com"), "s", "b")).isInstanceOf(Mailer.MailException.class)
                .hasMessageContaining("mail.smtp-password-ref");
        assertThat(smtp.getReceivedMessages()).isEmpty();
        Mailer off = new Mailer(new Mailer.Settings("", 25, "none", "svc@backplane.test", Optional.empty(), () -> "",
                Duration.ofSeconds(1)));
        assertThat(off.enabled()).isFalse();
        assertThatThrownBy(() -> off.send(List.of("a@example.com"), "s", "b")).hasMessageContaining("not configured");
        assertThatThrownBy(() -> new Mailer(new Mailer.Settings("h", 25, "ssl3", "f@x.org", Optional.empty(), () -> "",
                Duration.ofSeconds(1)))).isInstanceOf(IllegalArgumentException.class);
        assertThat(new Mailer.Settings("h", 25, "none", "f@x.org", Optional.of("mailer"), () -> PASSWORD,
                Duration.ofSeconds(1)).toString()).doesNotContain(PASSWORD).contains("login mailer");
    }

    /**
     * An SMTP relay with implicit TLS and a certificate of a private CA: refused with the JDK's roots alone, used
     * once the kernel's {@code tls.ca-bundle} holds that CA (the server's name is still checked).
     */
    @Test
    void aRelayWithAPrivateCaIsTrustedThroughTheCaBundle(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path store = dir.resolve("smtp.p12");
        String pem = dev.backplane.kernel.testing.TlsFixture.SelfSigned.create(store, "smtp.test",
                "dns:smtp.test,ip:127.0.0.1").pem();
        System.setProperty("greenmail.tls.keystore.file", store.toString());
        System.setProperty("greenmail.tls.keystore.password", "changeit");
        System.setProperty("greenmail.tls.key.password", "changeit");
        GreenMail smtps = new GreenMail(new ServerSetup(0, "127.0.0.1", ServerSetup.PROTOCOL_SMTPS).dynamicPort())
                .withConfiguration(GreenMailConfiguration.aConfig().withUser("mailer", PASSWORD));
        try {
            smtps.start();
            int port = smtps.getSmtps().getPort();
            assertThatThrownBy(() -> mailer("tls", port, () -> PASSWORD).send(List.of("a@example.com"), "s", "b"))
                    .as("the JDK's roots do not know the private CA").isInstanceOf(Mailer.MailException.class);
            javax.net.ssl.SSLContext trust = dev.backplane.kernel.app.OutboundTrust.withBundle(
                    java.nio.file.Files.writeString(dir.resolve("ca.pem"), pem)).sslContext();
            new Mailer(new Mailer.Settings("127.0.0.1", port, "tls", "svc@backplane.test", Optional.of("mailer"),
                    () -> PASSWORD, Duration.ofSeconds(5)), trust).send(List.of("a@example.com"), "over tls", "body");
            assertThat(smtps.waitForIncomingEmail(5000, 1)).isTrue();
            assertThat(smtps.getReceivedMessages()[0].getSubject()).isEqualTo("over tls");
        } finally {
            smtps.stop();
            System.clearProperty("greenmail.tls.keystore.file");
            System.clearProperty("greenmail.tls.keystore.password");
            System.clearProperty("greenmail.tls.key.password");
        }
    }
}
