package dev.backplane.kernel.credentials;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.sun.net.httpserver.HttpServer;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.plugin.api.ConnectorException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A secret_ref belongs to one owner (a tenant, or the platform), checked at registration and again at
 * every read and write, for both backends: one tenant can never name another tenant's secret, even
 * though the backplane's own identity may read every secret in the store.
 */
class SecretScopeTest {

    private static final UUID A = UUID.fromString("aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa");
    private static final UUID B = UUID.fromString("bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb");

    @Test
    void cloudSmRegistrationRefusesAnotherTenantsSecretName() {
        String own = "cloudsm:acme-prod/t-" + A + "-db";
        assertThat(SecretRefs.forRegistration(SecretRefs.Backend.CLOUDSM, A, "db", Optional.of(own))).isEqualTo(own);
        for (String foreign : List.of("cloudsm:acme-prod/t-" + B + "-db", "cloudsm:acme-prod/db",
                "cloudsm:other-proj/platform-docs", "cloudsm:acme-prod/t-" + A + "db")) {
            DomainException e = (DomainException) catchThrowable(() -> SecretRefs.forRegistration(SecretRefs.Backend.CLOUDSM,
                    A, "db", Optional.of(foreign)));
            assertThat(e).as(foreign).isNotNull();
            assertThat(e.code()).isEqualTo("secret_ref_outside_tenant_scope");
            assertThat(e.extras()).containsEntry("expected_secret_ref", "cloudsm:<project-id>/t-" + A + "-db");
        }
    }

    @Test
    void cloudSmReadsAndWritesOfAnotherTenantsSecretNeverReachTheStore() throws IOException {
        List<String> seen = new CopyOnWriteArrayList<>();
        HttpServer gsm = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        gsm.createContext("/", x -> {
            seen.add(x.getRequestMethod() + " " + x.getRequestURI().getPath());
            byte[] out = ("{\"payload\":{\"data\":\"" + Base64.getEncoder().encodeToString(
                    "{\"password\":\"canary-7d1f\"}".getBytes(StandardCharsets.UTF_8)) + "\"}}").getBytes(StandardCharsets.UTF_8);
            x.sendResponseHeaders(200, out.length);
            x.getResponseBody().write(out);
            x.close();
        });
        gsm.start();
        try {
            CredentialService service = new CredentialService(SecretRefs.Backend.CLOUDSM, new CloudSmStore(
                    URI.create("http://127.0.0.1:" + gsm.getAddress().getPort()), () -> "token", Duration.ofSeconds(5)));
            String ofA = "cloudsm:acme-prod/t-" + A + "-db";
            assertThat(service.resolve(Optional.of(A), ofA).field("password")).isEqualTo("canary-7d1f");
            assertThat(seen).hasSize(1);

            ConnectorException e = (ConnectorException) catchThrowable(() -> service.resolve(Optional.of(B), ofA));
            assertThat(e.getMessage()).contains("secret_ref_outside_scope").doesNotContain("canary");
            assertThatThrownBy(() -> service.resolve(Optional.empty(), ofA)).isInstanceOf(ConnectorException.class);
            assertThatThrownBy(() -> service.stage(B, ofA, Map.of("password", "x"))).isInstanceOf(DomainException.class)
                    .hasMessageContaining("does not belong to tenant " + B);
            assertThat(seen).as("refused before any request").hasSize(1);
            assertThat(service.resolve(Optional.empty(), "cloudsm:acme-prod/platform-docs").field("password"))
                    .isEqualTo("canary-7d1f");
        } finally {
            gsm.stop(0);
        }
    }

    @Test
    void kvReadsAreScopedAtReadTimeToo(@TempDir Path dir) {
        CredentialService service = new CredentialService(SecretRefs.Backend.KV, new FileKvStore(dir));
        service.stage(A, "tenants/" + A + "/db", Map.of("password", "canary-a"));
        assertThat(service.resolve(Optional.of(A), "tenants/" + A + "/db").field("password")).isEqualTo("canary-a");
        for (String ref : List.of("tenants/" + A + "/db", "tenants/" + B + "/../" + A + "/db", "platform/docs/x")) {
            ConnectorException e = (ConnectorException) catchThrowable(() -> service.resolve(Optional.of(B), ref));
            assertThat(e).as(ref).isNotNull();
            assertThat(e.getMessage()).contains("secret_ref_outside_scope");
        }
        assertThatThrownBy(() -> service.stage(B, "tenants/" + A + "/db", Map.of("password", "overwrite")))
                .isInstanceOf(DomainException.class);
        assertThat(service.resolve(Optional.of(A), "tenants/" + A + "/db").field("password")).isEqualTo("canary-a");
        assertThatThrownBy(() -> service.resolve(Optional.empty(), "tenants/" + A + "/db"))
                .isInstanceOf(ConnectorException.class).hasMessageContaining("does not belong to the platform");
    }

    @Test
    void platformRefsAreCheckedPerBackend() {
        assertThat(SecretRefs.forPlatform(SecretRefs.Backend.KV, "platform/docs/token")).isEqualTo("platform/docs/token");
        assertThat(SecretRefs.forPlatform(SecretRefs.Backend.CLOUDSM, "cloudsm:acme-prod/platform-docs"))
                .isEqualTo("cloudsm:acme-prod/platform-docs");
        assertThatThrownBy(() -> SecretRefs.forPlatform(SecretRefs.Backend.CLOUDSM, "cloudsm:acme-prod/t-" + A + "-db"))
                .isInstanceOf(DomainException.class);
        assertThatThrownBy(() -> SecretRefs.forPlatform(SecretRefs.Backend.KV, "tenants/" + A + "/db"))
                .isInstanceOf(DomainException.class);
    }
}
