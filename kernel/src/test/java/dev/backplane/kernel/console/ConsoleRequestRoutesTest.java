package dev.backplane.kernel.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.PrincipalKind;
import dev.backplane.kernel.identity.Role;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ConsoleRequestRoutesTest {

    final ConsoleRoutes.Signed signed = new ConsoleRoutes.Signed("id", new ConsoleSession(new Caller("alice",
            Optional.empty(), Optional.empty(), UUID.randomUUID(), Role.READ_ONLY, false, PrincipalKind.HUMAN,
            Optional.empty()), "the-token"));

    @Test
    void aFormPassesOnlyWithTheSessionsCsrfToken() {
        assertThatCode(() -> ConsoleRequestRoutes.checkCsrf(signed, Map.of("_csrf", "the-token")))
                .doesNotThrowAnyException();
        for (Map<String, String> form : List.of(Map.<String, String>of(), Map.of("_csrf", ""),
                Map.of("_csrf", "the-token2"), Map.of("_csrf", "the-toke"), Map.of("csrf", "the-token"))) {
            assertThatThrownBy(() -> ConsoleRequestRoutes.checkCsrf(signed, form)).as(form.toString())
                    .isInstanceOfSatisfying(DomainException.class,
                            e -> assertThat(e.code()).isEqualTo("csrf_token_invalid"));
        }
    }

    @Test
    void thePolicyAllowsOnlyTheConsolesOwnScriptsAndNoFramesOrForeignForms() {
        assertThat(ConsoleRequestRoutes.csp(List.of())).startsWith("default-src 'none';")
                .contains("script-src 'self';", "connect-src 'self';", "form-action 'self';", "frame-ancestors 'none'",
                        "base-uri 'none'")
                .doesNotContain("unsafe-inline", "unsafe-eval");
        // the identity provider's origin only: the sign-out form's answer redirects to its logout
        assertThat(ConsoleRequestRoutes.csp(List.of("https://idp.example:8443"))).startsWith("default-src 'none';")
                .doesNotContain("unsafe-inline").contains("form-action 'self' https://idp.example:8443;");
    }
}
