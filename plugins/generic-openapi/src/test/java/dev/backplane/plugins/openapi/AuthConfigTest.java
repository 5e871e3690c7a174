package dev.backplane.plugins.openapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.backplane.plugin.api.AuthScheme;
import dev.backplane.plugin.api.ConnectorException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AuthConfigTest {

    @Test
    void secretFieldsRenameTheDefaultsByPosition() {
        assertThat(AuthConfig.of(new AuthScheme("basic", List.of(), Map.of())).fields())
                .containsExactly("username", "password");
        assertThat(AuthConfig.of(new AuthScheme("basic", List.of("user"), Map.of())).fields())
                .containsExactly("user", "password");
        assertThat(AuthConfig.of(new AuthScheme("oauth2_mint", List.of("id", "secret"), Map.of("token_path", "/t")))
                .fields()).containsExactly("id", "secret");
        assertThat(AuthConfig.of(new AuthScheme("none", List.of(), Map.of())).fields()).isEmpty();
    }

    @Test
    void tokenHeaderDefaults() {
        AuthConfig plain = AuthConfig.of(new AuthScheme("static_header", List.of(), Map.of()));
        assertThat(plain.tokenHeader()).isEqualTo("Authorization");
        assertThat(plain.tokenPrefix()).isEqualTo("Bearer ");
        AuthConfig cookie = AuthConfig.of(new AuthScheme("session_login", List.of(),
                Map.of("login_path", "/login", "token_header", "Set-Cookie")));
        assertThat(cookie.tokenHeader()).isEqualTo("Cookie");
        assertThat(cookie.tokenPrefix()).isEmpty();
        assertThat(cookie.loginFormat()).isEqualTo("json");
        assertThat(cookie.loginMethod()).isEqualTo("POST");
        assertThat(cookie.sessionTtlSeconds()).isEqualTo(300);
        AuthConfig custom = AuthConfig.of(new AuthScheme("static_header", List.of(), Map.of("prefix", "Token",
                "header", "X-Auth")));
        assertThat(custom.tokenHeader()).isEqualTo("X-Auth");
        assertThat(custom.tokenPrefix()).isEqualTo("Token ");
    }

    @Test
    void tokensAreUsedUntilAbout30SecondsBeforeTheyExpire() {
        assertThat(SessionToken.usableSeconds(300)).isEqualTo(270);
        assertThat(SessionToken.usableSeconds(60)).isEqualTo(30);
        assertThat(SessionToken.usableSeconds(40)).isEqualTo(20);
        assertThat(new SessionToken("very-secret", java.time.Instant.EPOCH).toString()).doesNotContain("very-secret");
    }

    @Test
    void refusedStatusesAre401UnlessTheSchemeListsOthers() {
        assertThat(AuthConfig.of(new AuthScheme("basic", List.of(), Map.of())).refusedStatuses()).containsExactly(401);
        assertThat(AuthConfig.of(new AuthScheme("basic", List.of(), Map.of("refused_statuses", "401, 403")))
                .refusedStatuses()).containsExactlyInAnyOrder(401, 403);
        for (String bad : List.of("401,500", "forbidden", "401,,403")) {
            assertThatThrownBy(() -> AuthConfig.of(new AuthScheme("basic", List.of(), Map.of("refused_statuses", bad))))
                    .isInstanceOf(ConnectorException.class).hasMessageContaining("refused_statuses");
        }
    }

    @Test
    void anEmptyTokenPointerIsTheWholeLoginAnswer() {
        AuthScheme login = new AuthScheme("session_login_basic", List.of(), Map.of("login_path", "/api/session"));
        assertThat(AuthConfig.of(login).tokenPointer()).isEqualTo("/access_token");
        assertThat(AuthConfig.of(new AuthScheme("session_login_basic", List.of(), Map.of("login_path", "/api/session",
                "token_pointer", ""))).tokenPointer()).isEmpty();
        assertThatThrownBy(() -> AuthConfig.of(new AuthScheme("session_login_basic", List.of(), Map.of("login_path",
                "/api/session", "token_pointer", "token")))).isInstanceOf(ConnectorException.class)
                .hasMessageContaining("token_pointer");
    }
}
