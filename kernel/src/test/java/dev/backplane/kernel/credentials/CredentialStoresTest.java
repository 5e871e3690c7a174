package dev.backplane.kernel.credentials;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.backplane.kernel.testing.VaultDouble;
import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.Credential;
import dev.backplane.plugin.api.ErrorCode;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The three credential stores against real sockets and files, and the read-time ref rules. */
class CredentialStoresTest {

    private static final java.util.UUID T1 = java.util.UUID.fromString("11111111-1111-4111-8111-111111111111");

    private static VaultKvStore vault(VaultDouble v, Optional<String> token) {
        return new VaultKvStore(new VaultKvStore.Settings(URI.create(v.address()), "secret", Optional.of("team-a"), token,
                token.isPresent() ? Optional.empty() : Optional.of(VaultDouble.ROLE_ID),
                token.isPresent() ? Optional.empty() : Optional.of(VaultDouble.SECRET_ID), Duration.ofSeconds(2)));
    }

    private static ErrorCode codeOf(Runnable r) {
        try {
            r.run();
            return null;
        } catch (ConnectorException e) {
            return e.code();
        }
    }

    @Test
    void vaultReadsWritesAndMapsErrors() throws IOException {
        try (VaultDouble v = new VaultDouble("secret")) {
            v.put("tenants/t1/web", Map.of("username", "svc", "password", "hunter2-long"));
            VaultKvStore store = vault(v, Optional.of(VaultDouble.ROOT_TOKEN));
            assertThat(store.read("tenants/t1/web")).containsEntry("username", "svc").containsEntry("password", "hunter2-long");
            assertThat(v.requests()).contains("GET /v1/secret/data/tenants/t1/web namespace=team-a");

            ConnectorException denied = (ConnectorException) org.assertj.core.api.Assertions.catchThrowable(
                    () -> store.read("denied/x"));
            assertThat(denied.code()).isEqualTo(ErrorCode.CONNECTOR_KV_FORBIDDEN);
            assertThat(denied.extras()).containsEntry("expected_path", "denied/x");
            assertThat(denied.getMessage()).contains("denied/x");

            assertThat(codeOf(() -> store.read("tenants/t1/absent"))).isEqualTo(ErrorCode.CONNECTOR_ERROR);
            assertThatThrownBy(() -> store.read("tenants/t1/absent")).hasMessageContaining("KvCredentialsReadError");

            store.write("tenants/t1/new", Map.of("kubeconfig", "apiVersion: v1"));
            assertThat(store.read("tenants/t1/new")).containsEntry("kubeconfig", "apiVersion: v1");
            assertThat(store.toString()).doesNotContain(VaultDouble.ROOT_TOKEN);
            assertThat(store.describe()).doesNotContain(VaultDouble.ROOT_TOKEN);
        }
    }

    @Test
    void throughVaultTheServiceRefusesMountShapedRefsAndNamesMissingFields() throws IOException {
        try (VaultDouble v = new VaultDouble("secret")) {
            v.put("tenants/" + T1 + "/k8s", Map.of("username", "only-a-user"));
            CredentialService service = new CredentialService(SecretRefs.Backend.KV,
                    vault(v, Optional.of(VaultDouble.ROOT_TOKEN)));
            int before = v.requests().size();
            assertThatThrownBy(() -> service.resolve(Optional.of(T1), "secret/data/tenants/" + T1 + "/k8s"))
                    .hasMessageContaining("KvCredentialsReadError (ref embeds mount or data/)");
            assertThat(v.requests()).as("refused before any request").hasSize(before);
            Credential c = service.resolve(Optional.of(T1), "tenants/" + T1 + "/k8s");
            assertThatThrownBy(() -> c.field("kubeconfig")).isInstanceOf(ConnectorException.class)
                    .hasMessageContaining("KvCredentialsReadError (missing required field 'kubeconfig')");
            ConnectorException forbidden = (ConnectorException) org.assertj.core.api.Assertions.catchThrowable(
                    () -> service.resolve(Optional.of(T1), "tenants/" + T1 + "/denied"));
            assertThat(forbidden.code().wireName()).isEqualTo("connector_kv_forbidden");
        }
    }

    @Test
    void vaultAppRoleLogsInOnceAndAgainAfterRevocation() throws IOException {
        try (VaultDouble v = new VaultDouble("secret")) {
            v.put("tenants/t1/a", Map.of("password", "p-123456"));
            VaultKvStore store = vault(v, Optional.empty());
            store.read("tenants/t1/a");
            store.read("tenants/t1/a");
            assertThat(v.logins()).as("the token is reused").isEqualTo(1);
            v.revokeAll();
            assertThat(store.read("tenants/t1/a")).containsEntry("password", "p-123456");
            assertThat(v.logins()).as("a revoked token triggers one new login").isEqualTo(2);
        }
    }

    @Test
    void anUnreachableVaultIsAClearConnectorError() {
        VaultKvStore store = new VaultKvStore(new VaultKvStore.Settings(URI.create("http://127.0.0.1:1"), "secret",
                Optional.empty(), Optional.of("t"), Optional.empty(), Optional.empty(), Duration.ofMillis(500)));
        assertThatThrownBy(() -> store.read("tenants/x/y")).isInstanceOf(ConnectorException.class)
                .hasMessageContaining("unavailable");
    }

    @Test
    void theServiceRefusesMountShapedRefsAndMissingFieldsAreNamed(@TempDir Path dir) {
        CredentialService service = new CredentialService(SecretRefs.Backend.KV, new FileKvStore(dir));
        for (String ref : List.of("secret/data/tenants/" + T1 + "/x", "kv/data/tenants/" + T1 + "/x",
                "data/tenants/" + T1 + "/x")) {
            assertThatThrownBy(() -> service.resolve(Optional.of(T1), ref)).isInstanceOf(ConnectorException.class)
                    .hasMessageContaining("KvCredentialsReadError (ref embeds mount or data/)");
        }
        service.stage(T1, "tenants/" + T1 + "/x", Map.of("username", "u"));
        Credential c = service.resolve(Optional.of(T1), "tenants/" + T1 + "/x");
        assertThatThrownBy(() -> c.field("password")).isInstanceOf(ConnectorException.class)
                .hasMessageContaining("KvCredentialsReadError (missing required field");
        assertThat(c.toString()).doesNotContain("u\"").contains("username");
    }

    @Test
    void theFileStoreKeepsSecretsOwnerOnlyAndRefusesEscapes(@TempDir Path dir) throws IOException {
        FileKvStore store = new FileKvStore(dir.resolve("kv"));
        store.write("tenants/t1/db", Map.of("password", "s3cret-value"));
        Path file = dir.resolve("kv/tenants/t1/db.json");
        assertThat(Files.getPosixFilePermissions(file)).isEqualTo(PosixFilePermissions.fromString("rw-------"));
        assertThat(Files.getPosixFilePermissions(dir.resolve("kv/tenants"))).isEqualTo(
                PosixFilePermissions.fromString("rwx------"));
        assertThat(store.read("tenants/t1/db")).containsEntry("password", "s3cret-value");
        assertThat(codeOf(() -> store.read("tenants/t1/none"))).isEqualTo(ErrorCode.CONNECTOR_ERROR);
        assertThatThrownBy(() -> store.read("tenants/../../etc/passwd")).isInstanceOf(ConnectorException.class);
    }

    @Test
    void secretManagerRequestsHaveTheRestShape() throws IOException {
        ObjectMapper json = new ObjectMapper();
        List<String> seen = new CopyOnWriteArrayList<>();
        Map<String, String> stored = new java.util.concurrent.ConcurrentHashMap<>();
        HttpServer gsm = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        gsm.createContext("/", x -> {
            String line = x.getRequestMethod() + " " + x.getRequestURI();
            seen.add(line + " auth=" + x.getRequestHeaders().getFirst("Authorization"));
            byte[] in = x.getRequestBody().readAllBytes();
            String out;
            int status = 200;
            String path = x.getRequestURI().getPath();
            if (line.startsWith("GET") && path.equals("/v1/projects/acme-prod/secrets/web/versions/latest:access")) {
                out = json.writeValueAsString(Map.of("name", "x", "payload", Map.of("data", Base64.getEncoder()
                        .encodeToString("{\"username\":\"svc\",\"password\":\"pw-9999\"}".getBytes(StandardCharsets.UTF_8)))));
            } else if (line.startsWith("POST") && path.equals("/v1/projects/acme-prod/secrets/new:addVersion")
                    && !stored.containsKey("created")) {
                status = 404;
                out = "{}";
            } else if (line.startsWith("POST") && path.equals("/v1/projects/acme-prod/secrets")) {
                stored.put("created", "yes");
                out = "{}";
            } else if (line.startsWith("POST") && path.endsWith(":addVersion")) {
                JsonNode body = json.readTree(in);
                stored.put("payload", new String(Base64.getDecoder().decode(body.path("payload").path("data").asText()),
                        StandardCharsets.UTF_8));
                out = "{}";
            } else if (path.contains("/secrets/forbidden/")) {
                status = 403;
                out = "{}";
            } else {
                status = 404;
                out = "{}";
            }
            byte[] bytes = out.getBytes(StandardCharsets.UTF_8);
            x.sendResponseHeaders(status, bytes.length);
            x.getResponseBody().write(bytes);
            x.close();
        });
        gsm.start();
        try {
            CloudSmStore store = new CloudSmStore(URI.create("http://127.0.0.1:" + gsm.getAddress().getPort()),
                    () -> "ya29.token", Duration.ofSeconds(2));
            assertThat(store.read("cloudsm:acme-prod/web")).containsEntry("password", "pw-9999");
            assertThat(store.read("cloudsm:acme-prod/web#username")).isEqualTo(Map.of("username", "svc"));
            assertThat(seen.getFirst()).isEqualTo(
                    "GET /v1/projects/acme-prod/secrets/web/versions/latest:access auth=Bearer ya29.token");
            assertThat(codeOf(() -> store.read("cloudsm:acme-prod/forbidden/versions/3")))
                    .isEqualTo(ErrorCode.CONNECTOR_KV_FORBIDDEN);
            assertThat(codeOf(() -> store.read("cloudsm:acme-prod/none"))).isEqualTo(ErrorCode.CONNECTOR_ERROR);

            store.write("cloudsm:acme-prod/new", Map.of("password", "staged-1"));
            assertThat(seen).anyMatch(s -> s.startsWith("POST /v1/projects/acme-prod/secrets?secretId=new"));
            assertThat(stored.get("payload")).isEqualTo("{\"password\":\"staged-1\"}");
        } finally {
            gsm.stop(0);
        }
    }
}
