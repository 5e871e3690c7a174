package dev.backplane.plugin.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RedactionTest {

    @Test
    void secretLookingKeysAreRecognised() {
        for (String key : List.of("password", "newPassword", "PASSWORD", "client_secret", "secretData", "access_token",
                "apiKey", "api_key", "X-API-Key", "apikey", "privateKeyPem", "ssh-key", "credentials", "Authorization",
                "pin", "Cookie", "passphrase", "pwd")) {
            assertTrue(Redaction.looksSecret(key), key);
        }
        for (String key : List.of("username", "keyword", "keycloakId", "realm", "enabled", "first",
                "description", "type")) {
            assertFalse(Redaction.looksSecret(key), key);
        }
    }

    @Test
    void redactionReachesNestedObjectsAndListsAndKeepsTheRest() {
        Object body = Map.of("user", Map.of("name", "bob", "password", "p"), "list",
                List.of(Map.of("token", "t", "n", 1), "plain"));
        assertEquals(Map.of("user", Map.of("name", "bob", "password", Redaction.REDACTED), "list",
                List.of(Map.of("token", Redaction.REDACTED, "n", 1), "plain")), Redaction.redact(body));
        assertEquals(Map.of("api_key", List.of(Redaction.REDACTED), "q", List.of("x")),
                Redaction.redactQuery(Map.of("api_key", List.of("k"), "q", List.of("x"))));
    }

    @Test
    void declaredSecretPathsAreHiddenWhateverTheirNamesAndKeyNamesStayTheFallback() {
        Object params = Map.of("path", "db", "data", Map.of("value", "s3cr3t", "user", "app"),
                "users", List.of(Map.of("type", "password", "value", "p1"), Map.of("type", "otp", "value", "p2")),
                "note", "kept", "token", "t");
        Object shown = Redaction.redact(params, java.util.Set.of("data", "users.value"));
        assertEquals(Map.of("path", "db", "data", Redaction.REDACTED,
                "users", List.of(Map.of("type", "password", "value", Redaction.REDACTED),
                        Map.of("type", "otp", "value", Redaction.REDACTED)),
                "note", "kept", "token", Redaction.REDACTED), shown);
        assertEquals(Redaction.redact(params), Redaction.redact(params, java.util.Set.of()));
    }

    @Test
    void anOperationDeclaresItsSecretParamsAndTheOldConstructorDeclaresNone() {
        OperationDescriptor old = new OperationDescriptor("v.kv.write", "kv", "Writes", SafetyLevel.CAUTION, true,
                OpClass.WRITE, "{}", new OperationShape.Typed(), ResultKind.OBJECT);
        assertEquals(java.util.Set.of(), old.secretParams());
        assertEquals(java.util.Set.of("data", "credentials.value"),
                old.withSecretParams("data", "credentials.value", "data").secretParams());
        for (String bad : List.of("", "a..b", ".a", "a.", "with space")) {
            org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                    () -> old.withSecretParams(bad), bad);
        }
    }
}
