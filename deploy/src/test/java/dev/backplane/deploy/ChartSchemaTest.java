package dev.backplane.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** values.schema.json refuses wrong values, through Helm's own validation, with a message naming the problem. */
class ChartSchemaTest {

    static String refusal(Map<String, Object> sets) {
        try {
            Chart.render("minimal", sets);
        } catch (RuntimeException e) {
            return e.getMessage();
        }
        throw new AssertionError("Helm accepted " + sets);
    }

    @Test
    void theMinimalValuesAreAccepted() {
        assertThat(Chart.render("minimal")).contains("kind: Deployment");
    }

    @Test
    void zeroReplicasAreRefused() {
        assertThat(refusal(Map.of("replicaCount", 0))).contains("values don't meet the specifications of the schema")
                .contains("replicaCount").contains("minimum");
    }

    @Test
    void aMissingDatabaseSecretIsRefused() {
        assertThat(refusal(Map.of("database.passwordSecret.name", ""))).contains("/database/passwordSecret/name")
                .contains("minLength");
    }

    @Test
    void aMissingDatabaseUrlOrIssuerIsRefused() {
        assertThat(refusal(Map.of("database.url", ""))).contains("/database/url");
        assertThat(refusal(Map.of("identity.issuer", ""))).contains("/identity/issuer");
        assertThatThrownBy(() -> Chart.renderYaml("database: {url: jdbc:postgresql://db/svc, passwordSecret: {name: db}}\n"
                + "vault: {address: https://vault:8200}\n"))
                .hasMessageContaining("/identity/issuer").hasMessageContaining("/publicUrl");
    }

    @Test
    void anUnknownKeyIsRefused() {
        assertThat(refusal(Map.of("replicas", 3))).contains("additional properties").contains("'replicas'");
        assertThat(refusal(Map.of("database.passwort", "x"))).contains("additional properties").contains("'passwort'");
    }

    @Test
    void aBadVaultAuthMethodIsRefused() {
        assertThat(refusal(Map.of("vault.authMethod", "ldap"))).contains("/vault/authMethod")
                .contains("'token', 'approle', 'kubernetes'");
    }

    @Test
    void anAuthMethodWithoutItsCredentialIsRefused() {
        assertThat(refusal(Map.of("vault.authMethod", "token"))).contains("/vault/tokenSecret/name");
        assertThat(refusal(Map.of("vault.kubernetes.role", ""))).contains("/vault/kubernetes/role");
    }

    @Test
    void extraPluginsNeedTheirDigests() {
        assertThat(refusal(Map.of("plugins.extra.enabled", true, "plugins.extra.source", "volume",
                "plugins.extra.volume.persistentVolumeClaim.claimName", "p", "plugins.extra.jars[0].name", "a.jar",
                "plugins.extra.jars[0].sha256", "abc"))).contains("/plugins/extra/jars/0/sha256");
    }

    @Test
    void everyLevelTheSchemaDefinesRefusesUnknownKeys() throws Exception {
        var schema = Chart.YAML.readTree(Files.readString(Chart.DIR.resolve("values.schema.json")));
        assertThat(schema.path("$schema").asText()).isEqualTo("http://json-schema.org/draft-07/schema#");
        java.util.List<String> open = new java.util.ArrayList<>();
        walk(schema, "", open);
        assertThat(open).as("object schemas with properties but without additionalProperties: false").isEmpty();
    }

    static void walk(com.fasterxml.jackson.databind.JsonNode n, String path, java.util.List<String> open) {
        if (n.has("properties") && !n.path("additionalProperties").isBoolean() && !path.contains("/allOf")) {
            open.add(path.isEmpty() ? "/" : path);
        }
        n.fields().forEachRemaining(e -> {
            if (e.getValue().isContainerNode()) {
                walk(e.getValue(), path + "/" + e.getKey(), open);
            }
        });
        if (n.isArray()) {
            for (int i = 0; i < n.size(); i++) {
                walk(n.get(i), path + "/" + i, open);
            }
        }
    }
}
