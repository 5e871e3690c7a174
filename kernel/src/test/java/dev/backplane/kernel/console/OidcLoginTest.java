package dev.backplane.kernel.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OidcLoginTest {

    @Test
    void thePkceChallengeIsS256OfTheVerifier() {
        // RFC 7636, appendix B
        assertThat(OidcLogin.challenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"))
                .isEqualTo("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
    }

    @Test
    void theIssuersOriginIsWhereItsLogoutIsTakenToBe() {
        assertThat(origin("https://idp.example/realms/svc")).hasValue("https://idp.example");
        assertThat(origin("http://127.0.0.1:8180/realms/svc/")).hasValue("http://127.0.0.1:8180");
        assertThat(origin("https://user@idp.example:8443/x")).hasValue("https://idp.example:8443");
        assertThat(origin("idp.example/realms/svc")).isEmpty();
        assertThat(origin("ftp://idp.example/")).isEmpty();
    }

    private static java.util.Optional<String> origin(String issuer) {
        return new OidcLogin(issuer, "svc-console", null).issuerOrigin();
    }

    @Test
    void formValuesAreEncodedInTheirOrder() {
        Map<String, String> f = new LinkedHashMap<>();
        f.put("redirect_uri", "https://svc.test/ui/callback?x=1&y=2");
        f.put("grant_type", "authorization_code");
        f.put("code", "a b+c/é");
        assertThat(OidcProvider.form(f)).isEqualTo("redirect_uri=https%3A%2F%2Fsvc.test%2Fui%2Fcallback%3Fx%3D1%26y%3D2"
                + "&grant_type=authorization_code&code=a+b%2Bc%2F%C3%A9");
    }
}
