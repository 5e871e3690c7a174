package dev.backplane.kernel.dashboards;

import jakarta.mail.Message;
import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.Transport;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import java.time.Duration;
import java.util.Date;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.function.Supplier;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocketFactory;

/**
 * Sends notification mail over SMTP (Angus Mail). The password is never a setting: it is read through
 * a secret_ref at each send (so a rotated secret needs no restart) and is not kept, logged or shown.
 */
public final class Mailer {

    /**
     * Where mail goes. {@code host} empty means mail is off.
     *
     * @param tls {@code none}, {@code starttls} (required, not opportunistic) or {@code tls} (implicit TLS)
     * @param username the SMTP login, empty for none
     * @param password resolves the SMTP password (from its secret_ref) when a login is configured
     */
    public record Settings(String host, int port, String tls, String from, Optional<String> username,
                           Supplier<String> password, Duration timeout) {

        @Override
        public String toString() {
            return "Mailer.Settings[" + host + ":" + port + ", tls " + tls + ", from " + from + ", login "
                    + username.orElse("none") + "]";
        }
    }

    /** A failure to send; its message names the server's answer, never the credential. */
    public static final class MailException extends Exception {
        MailException(String message) {
            super(message);
        }
    }

    private final Settings settings;
    private final SSLSocketFactory tlsSockets;

    /** With the JDK's trusted roots only. */
    public Mailer(Settings settings) {
        this(settings, defaultContext());
    }

    /**
     * @param trust what the server's certificate is checked against (STARTTLS and implicit TLS): the JDK's roots and
     *        the kernel's {@code tls.ca-bundle}
     */
    public Mailer(Settings settings, SSLContext trust) {
        this.settings = settings;
        this.tlsSockets = trust.getSocketFactory();
        if (!List.of("none", "starttls", "tls").contains(settings.tls())) {
            throw new IllegalArgumentException("mail.smtp-tls must be none, starttls or tls, got " + settings.tls());
        }
    }

    private static SSLContext defaultContext() {
        try {
            return SSLContext.getDefault();
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    public boolean enabled() {
        return !settings.host().isBlank();
    }

    private String password() throws MailException {
        try {
            return settings.password().get();
        } catch (RuntimeException e) {
            throw new MailException("the SMTP password could not be read through mail.smtp-password-ref: "
                    + e.getMessage());
        }
    }

    /** Sends one plain-text message to these recipients (already checked against the policy). */
    public void send(List<String> to, String subject, String body) throws MailException {
        if (!enabled()) {
            throw new MailException("mail is not configured (setting mail.smtp-host is empty)");
        }
        Properties p = new Properties();
        p.put("mail.smtp.host", settings.host());
        p.put("mail.smtp.port", Integer.toString(settings.port()));
        String ms = Long.toString(settings.timeout().toMillis());
        p.put("mail.smtp.connectiontimeout", ms);
        p.put("mail.smtp.timeout", ms);
        p.put("mail.smtp.writetimeout", ms);
        p.put("mail.smtp.auth", Boolean.toString(settings.username().isPresent()));
        if (settings.tls().equals("starttls")) {
            p.put("mail.smtp.starttls.enable", "true");
            p.put("mail.smtp.starttls.required", "true");
        }
        if (settings.tls().equals("tls")) {
            p.put("mail.smtp.ssl.enable", "true");
        }
        if (!settings.tls().equals("none")) {
            p.put("mail.smtp.ssl.checkserveridentity", "true");
            p.put("mail.smtp.ssl.socketFactory", tlsSockets); // an instance: used for STARTTLS and implicit TLS
        }
        Session session = Session.getInstance(p);
        try {
            MimeMessage m = new MimeMessage(session);
            m.setFrom(new InternetAddress(settings.from(), true));
            for (String r : to) {
                m.addRecipient(Message.RecipientType.TO, new InternetAddress(r, true));
            }
            m.setSubject(subject, "UTF-8");
            m.setText(body, "UTF-8");
            m.setSentDate(new Date());
            if (settings.username().isPresent()) {
                Transport.send(m, settings.username().get(), password());
            } else {
                Transport.send(m);
            }
        } catch (MessagingException e) {
            throw new MailException("SMTP " + settings.host() + ":" + settings.port() + " refused or failed: "
                    + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : " " + e.getMessage().lines()
                    .findFirst().orElse("")));
        }
    }
}
