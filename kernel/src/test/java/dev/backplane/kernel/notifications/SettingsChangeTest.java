package dev.backplane.kernel.notifications;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.backplane.kernel.credentials.SecretRefs;
import dev.backplane.kernel.egress.SsrfGuard;
import dev.backplane.kernel.errors.DomainException;
import java.net.InetAddress;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The settings a PUT may store: checked field by field, each refusal naming its field. */
class SettingsChangeTest {

    private static final UUID TENANT = UUID.randomUUID();
    private static final String REF = "tenants/" + TENANT + "/approval-webhook";
    /** hooks.example.com is public, internal.example.com private; nothing else resolves. */
    private static final SsrfGuard SSRF = new SsrfGuard(List.of(), host -> switch (host) {
        case "hooks.example.com" -> new InetAddress[] {InetAddress.getByAddress(host, new byte[] {93, (byte) 184, 2, 1})};
        case "internal.example.com" -> new InetAddress[] {InetAddress.getByAddress(host, new byte[] {10, 0, 0, 5})};
        default -> throw new java.net.UnknownHostException(host);
    });

    private static NotificationSettings check(SettingsChange c) {
        return c.validate(TENANT, SSRF, SecretRefs.Backend.KV);
    }

    private static void refused(SettingsChange c, String code, String field) {
        assertThatThrownBy(() -> check(c)).isInstanceOfSatisfying(DomainException.class, e -> {
            assertThat(e.code()).as(e.getMessage()).isEqualTo(code);
            assertThat(String.valueOf(e.extras().get("field"))).isEqualTo(field);
        });
    }

    @Test
    void defaultsFillWhatIsLeftOut() {
        NotificationSettings s = check(new SettingsChange(null, " Ops@Example.com,ops@example.com, b@example.com ",
                null, null, null, null));
        assertThat(s.configured()).isTrue();
        assertThat(s.enabled()).isTrue();
        assertThat(s.mailRecipients()).containsExactly("ops@example.com", "b@example.com");
        assertThat(s.webhookUrl()).isEmpty();
        assertThat(s.webhookFormat()).isEqualTo("json");
        assertThat(s.events()).containsExactly("parked", "decided", "expired");
        assertThat(s.channels()).containsExactly("mail");
        assertThat(s.wants("parked")).isTrue();
        assertThat(s.wants("withdrawn")).isTrue();
    }

    @Test
    void parkedIsAlwaysSentAndTheOtherGroupsAsPicked() {
        NotificationSettings s = check(new SettingsChange(true, "", "https://hooks.example.com/x", "slack", null,
                List.of("expired")));
        assertThat(s.events()).containsExactly("parked", "expired");
        assertThat(s.wants("parked")).isTrue();
        assertThat(s.wants("expired")).isTrue();
        assertThat(s.wants("approved")).isFalse();
        assertThat(s.wants("rejected")).isFalse();
        assertThat(s.channels()).containsExactly("webhook");
        NotificationSettings off = check(new SettingsChange(false, "a@example.com", null, null, null, null));
        assertThat(off.wants("parked")).as("disabled sends nothing").isFalse();
        assertThat(NotificationSettings.UNSET.wants("parked")).as("unset sends nothing").isFalse();
        assertThat(check(new SettingsChange(null, null, "https://hooks.example.com/x", "json", REF, null))
                .webhookSecretRef()).contains(REF);
    }

    @Test
    void badFieldsAreRefusedByName() {
        refused(new SettingsChange(null, "ops@example.com, Boss <boss@example.com>", null, null, null, null),
                "invalid_request", "mail_recipients");
        refused(new SettingsChange(null, "not-an-address", null, null, null, null), "invalid_request", "mail_recipients");
        refused(new SettingsChange(null, null, null, null, null, null), "invalid_request", "mail_recipients");
        refused(new SettingsChange(null, null, "file:///etc/passwd", "slack", null, null), "invalid_request",
                "webhook_url");
        refused(new SettingsChange(null, null, "https://hooks.example.com/x#frag", "slack", null, null),
                "invalid_request", "webhook_url");
        refused(new SettingsChange(null, null, "https://internal.example.com/x", "slack", null, null), "ssrf_refused",
                "webhook_url");
        refused(new SettingsChange(null, null, "https://nowhere.invalid/x", "slack", null, null), "ssrf_refused",
                "webhook_url");
        refused(new SettingsChange(null, null, "https://hooks.example.com/x", "html", null, null), "invalid_request",
                "webhook_format");
        refused(new SettingsChange(null, null, "https://hooks.example.com/x", null, null, null), "invalid_request",
                "webhook_secret_ref");
        refused(new SettingsChange(null, "a@example.com", null, null, REF, null), "invalid_request",
                "webhook_secret_ref");
        refused(new SettingsChange(null, "a@example.com", null, null, null, List.of("approved")), "invalid_request",
                "events");
        String sixty = String.join(",", java.util.stream.IntStream.range(0, 60).mapToObj(i -> "p" + i + "@example.com")
                .toList());
        refused(new SettingsChange(null, sixty, null, null, null, null), "invalid_request", "mail_recipients");
        assertThatThrownBy(() -> check(new SettingsChange(null, null, "https://hooks.example.com/x", "json",
                "tenants/" + UUID.randomUUID() + "/hook", null))).isInstanceOfSatisfying(DomainException.class,
                        e -> assertThat(e.code()).isEqualTo("secret_ref_outside_tenant_scope"));
    }
}
