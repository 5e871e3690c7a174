package dev.backplane.connector.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RedactionTest {

    @Test
    void secretLookingKeysAreRecognised() {
        for (String key : List.of("password", "newPassword", "PASSWORD", "client_secret", "secretData", "access_token",
                "apiKey", "api_key", "X-API-Key", "apikey", "privateKeyPem", "ssh-key", "credentials", "Authorization",
                "pin", "Cookie", "passphrase", "pwd")) {
            assertThat(Redaction.looksSecret(key)).as(key).isTrue();
        }
        for (String key : List.of("username", "keyword", "keycloakId", "realm", "enabled", "first",
                "description", "type")) {
            assertThat(Redaction.looksSecret(key)).as(key).isFalse();
        }
    }

    @Test
    void redactionReachesNestedObjectsAndListsAndKeepsTheRest() {
        Object body = Map.of("user", Map.of("name", "bob", "password", "p"), "list",
                List.of(Map.of("token", "t", "n", 1), "plain"));
        assertThat(Redaction.redact(body)).isEqualTo(Map.of("user", Map.of("name", "bob", "password",
                Redaction.REDACTED), "list", List.of(Map.of("token", Redaction.REDACTED, "n", 1), "plain")));
        assertThat(Redaction.redactQuery(Map.of("api_key", List.of("k"), "q", List.of("x"))))
                .isEqualTo(Map.of("api_key", List.of(Redaction.REDACTED), "q", List.of("x")));
    }
}
