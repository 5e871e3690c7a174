package dev.backplane.kernel.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The primitives under every webhook proof: the HMAC itself, Standard Webhooks keys, the comparisons. */
class WebhookMacsTest {

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void theMacIsHmacSha256OfThePrefixThenTheBody() {
        // RFC 4231 test case 2: key "Jefe", data "what do ya want for nothing?" (split into prefix and body)
        assertThat(HexFormat.of().formatHex(WebhookMacs.mac(utf8("Jefe"), utf8("what do ya "), utf8("want for nothing?"))))
                .isEqualTo("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
    }

    @Test
    void aWhsecKeyIsUsedBase64DecodedAndAnythingElseAsItsBytes() {
        byte[] raw = {1, 2, 3, 4};
        assertThat(WebhookMacs.standardKey(utf8("whsec_" + Base64.getEncoder().encodeToString(raw)))).isEqualTo(raw);
        assertThat(WebhookMacs.standardKey(utf8("plain-secret"))).isEqualTo(utf8("plain-secret"));
        assertThat(WebhookMacs.standardKey(utf8("whsec_not base64!"))).isEqualTo(utf8("whsec_not base64!"));
    }

    @Test
    void comparisonsAcceptOnlyEqualValuesOfAnyLength() {
        assertThat(WebhookMacs.constantTimeEquals(utf8("secret"), utf8("secret"))).isTrue();
        assertThat(WebhookMacs.constantTimeEquals(utf8("secret"), utf8("secreT"))).isFalse();
        assertThat(WebhookMacs.constantTimeEquals(utf8("secret"), utf8("secret-and-more"))).isFalse();
        assertThat(WebhookMacs.constantTimeEquals(new byte[0], utf8("x"))).isFalse();
        assertThat(WebhookMacs.anyEqual(List.of(utf8("old"), utf8("new")), utf8("new"))).isTrue();
        assertThat(WebhookMacs.anyEqual(List.of(utf8("old"), utf8("new")), utf8("other"))).isFalse();
    }

    @Test
    void anOutboundSignatureIsTheStandardWebhooksOne() {
        // the Standard Webhooks reference vector (its libraries' tests): whsec_ key, msg id, timestamp, payload
        assertThat(WebhookMacs.standardSignature(utf8("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"),
                "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330L, utf8("{\"test\": 2432232314}")))
                .isEqualTo("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
        assertThat(WebhookMacs.standardSignature(utf8("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"),
                "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265331L, utf8("{\"test\": 2432232314}")))
                .as("another timestamp signs differently").isNotEqualTo("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
    }
}
