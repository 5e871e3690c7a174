package dev.backplane.kernel.testing;

import com.icegreen.greenmail.configuration.GreenMailConfiguration;
import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import jakarta.mail.Address;
import jakarta.mail.Message;
import jakarta.mail.MessagingException;
import jakarta.mail.internet.MimeMessage;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A real SMTP server (GreenMail) on a free loopback port, for the kernel's mail: {@link #settings()} point a kernel
 * at it (no TLS, sent from {@code svc@backplane.test}), and {@link #to} reads what it received for one address.
 */
public final class LoopbackSmtp implements AutoCloseable {

    private final GreenMail server;

    private LoopbackSmtp(GreenMail server) {
        this.server = server;
        server.start();
    }

    /** A server that takes mail from anyone. */
    public static LoopbackSmtp start() {
        return new LoopbackSmtp(new GreenMail(loopback()));
    }

    /** A server that takes mail only after this login (SMTP AUTH). */
    public static LoopbackSmtp requiringLogin(String user, String password) {
        return new LoopbackSmtp(new GreenMail(loopback())
                .withConfiguration(GreenMailConfiguration.aConfig().withUser(user, password)));
    }

    private static ServerSetup loopback() {
        return new ServerSetup(0, "127.0.0.1", ServerSetup.PROTOCOL_SMTP).dynamicPort();
    }

    /** Points the kernel of a {@code @BeforeKernel} set-up at this server, which stops after the kernel. */
    public LoopbackSmtp serving(KernelSetup setup) {
        settings().forEach(setup::setting);
        setup.closeAfter(this);
        return this;
    }

    /** The kernel's mail settings for this server (a login, where it requires one, is the test's to add). */
    public Map<String, String> settings() {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("SVC_MAIL_SMTP_HOST", "127.0.0.1");
        settings.put("SVC_MAIL_SMTP_PORT", String.valueOf(server.getSmtp().getPort()));
        settings.put("SVC_MAIL_SMTP_TLS", "none");
        settings.put("SVC_MAIL_FROM", "svc@backplane.test");
        return settings;
    }

    /** Every message received so far. */
    public MimeMessage[] received() {
        return server.getReceivedMessages();
    }

    /** The messages received so far with {@code address} among their To recipients. */
    public List<MimeMessage> to(String address) {
        return Arrays.stream(received()).filter(m -> {
            try {
                Address[] to = m.getRecipients(Message.RecipientType.TO);
                return to != null && Arrays.stream(to).anyMatch(a -> a.toString().equals(address));
            } catch (MessagingException e) {
                throw new AssertionError(e);
            }
        }).toList();
    }

    /** Waits up to {@code millis} until {@code count} messages have come in all; false when they have not. */
    public boolean awaitMessages(long millis, int count) {
        return server.waitForIncomingEmail(millis, count);
    }

    @Override
    public void close() {
        server.stop();
    }
}
