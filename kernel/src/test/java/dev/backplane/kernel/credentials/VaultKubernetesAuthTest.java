package dev.backplane.kernel.credentials;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.backplane.kernel.app.OutboundTrust;
import dev.backplane.kernel.testing.LogCapture;
import dev.backplane.kernel.testing.VaultDouble;
import dev.backplane.plugin.api.ConnectorException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Vault's Kubernetes auth method against the Vault double's {@code POST /v1/auth/kubernetes/login}: the projected
 * service-account token is read from its file at each login, the client token is cached until shortly before its
 * lease ends, a refused login is a clear error without the token; and an https Vault signed by a private CA is
 * trusted only through {@code tls.ca-bundle}.
 */
class VaultKubernetesAuthTest {

    @TempDir
    Path dir;

    /** A clock the test moves forward. */
    private static final class MovableClock extends Clock {
        private volatile Instant now = Instant.parse("2030-01-01T00:00:00Z");

        void advance(Duration d) {
            now = now.plus(d);
        }

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    private static String jwt() {
        return "eyJhbGciOiJSUzI1NiJ9.sa-" + UUID.randomUUID() + ".sig";
    }

    private static VaultKvStore.Settings kubernetes(VaultDouble v, String role, Path tokenFile, SSLContext ssl) {
        return new VaultKvStore.Settings(URI.create(v.address()), "secret", Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.of(new VaultKvStore.Kubernetes(role, "kubernetes", tokenFile)),
                Duration.ofSeconds(3), ssl);
    }

    @Test
    void logsInWithTheServiceAccountTokenAndLogsInAgainWhenTheLeaseEndsReadingTheRotatedFile() throws Exception {
        try (VaultDouble v = new VaultDouble("secret")) {
            v.put("tenants/t1/db", Map.of("password", "pw-k8s-1"));
            String first = jwt();
            v.acceptServiceAccountToken(first);
            v.kubernetesLeaseSeconds(600);
            Path tokenFile = Files.writeString(dir.resolve("token"), first);
            MovableClock clock = new MovableClock();
            VaultKvStore store = new VaultKvStore(kubernetes(v, "web", tokenFile, VaultKvStore.jdkDefault()), clock);

            assertThat(store.read("tenants/t1/db")).containsEntry("password", "pw-k8s-1");
            assertThat(v.requests()).contains("POST /v1/auth/kubernetes/login namespace=null");
            assertThat(v.kubernetesLogins()).containsExactly(first);
            clock.advance(Duration.ofSeconds(400));
            store.read("tenants/t1/db");
            assertThat(v.kubernetesLogins()).as("the client token is reused within its lease").hasSize(1);

            // the kubelet rotates the projected token; the old one no longer passes the TokenReview
            String rotated = jwt();
            Files.writeString(tokenFile, rotated + "\n");
            v.acceptServiceAccountToken(rotated);
            v.refuseServiceAccountToken(first);
            clock.advance(Duration.ofSeconds(200)); // 600 s lease: past the renewal point (lease minus a margin)
            assertThat(store.read("tenants/t1/db")).containsEntry("password", "pw-k8s-1");
            assertThat(v.kubernetesLogins()).as("a new login, with the token the file holds now")
                    .containsExactly(first, rotated);
            assertThat(store.describe()).contains("kubernetes auth (role web at auth/kubernetes)")
                    .doesNotContain(first).doesNotContain(rotated);
        }
    }

    @Test
    void aRefusedLoginIsAClearErrorWithoutTheToken() throws Exception {
        LogCapture logs = LogCapture.onRootLogger();
        try (VaultDouble v = new VaultDouble("secret")) {
            String refused = jwt();
            Path tokenFile = Files.writeString(dir.resolve("token"), refused);
            VaultKvStore store = new VaultKvStore(kubernetes(v, "web", tokenFile, VaultKvStore.jdkDefault()));
            ConnectorException e = catchThrowableOfType(ConnectorException.class, () -> store.read("tenants/t1/db"));
            assertThat(e.getMessage()).contains("Kubernetes login (role web at auth/kubernetes) failed with HTTP 403: "
                    + "permission denied").doesNotContain(refused);
            assertThat(v.exchanges()).as("the token was sent, to Vault only")
                    .anyMatch(x -> x.requestBody().contains(refused) && x.status() == 403);

            v.acceptServiceAccountToken(refused);
            VaultKvStore wrongRole = new VaultKvStore(kubernetes(v, "no-such-role", tokenFile, VaultKvStore.jdkDefault()));
            ConnectorException role = catchThrowableOfType(ConnectorException.class, () -> wrongRole.read("tenants/t1/db"));
            assertThat(role.getMessage()).contains("HTTP 400: invalid role name \"no-such-role\"");

            VaultKvStore noFile = new VaultKvStore(kubernetes(v, "web", dir.resolve("absent"), VaultKvStore.jdkDefault()));
            ConnectorException missing = catchThrowableOfType(ConnectorException.class, () -> noFile.read("tenants/t1/db"));
            assertThat(missing.getMessage()).contains("cannot read the service-account token file " + dir.resolve("absent"));
            assertThat(String.join("\n", logs.lines())).doesNotContain(refused);
        } finally {
            logs.detach();
        }
    }

    @Test
    void anHttpsVaultOfAPrivateCaIsTrustedOnlyThroughTheBundle() throws Exception {
        try (VaultDouble v = VaultDouble.overTls("secret", dir)) {
            v.put("tenants/t1/db", Map.of("password", "pw-tls-1"));
            VaultKvStore.Settings jdkOnly = new VaultKvStore.Settings(URI.create(v.address()), "secret", Optional.empty(),
                    Optional.of(VaultDouble.ROOT_TOKEN), Optional.empty(), Optional.empty(), Duration.ofSeconds(3));
            ConnectorException refused = catchThrowableOfType(ConnectorException.class,
                    () -> new VaultKvStore(jdkOnly).read("tenants/t1/db"));
            assertThat(refused.getMessage()).contains("SSLHandshakeException");

            Path bundle = Files.writeString(dir.resolve("ca.pem"), v.caPem());
            VaultKvStore.Settings withBundle = new VaultKvStore.Settings(URI.create(v.address()), "secret",
                    Optional.empty(), Optional.of(VaultDouble.ROOT_TOKEN), Optional.empty(), Optional.empty(),
                    Optional.empty(), Duration.ofSeconds(3), OutboundTrust.withBundle(bundle).sslContext());
            assertThat(new VaultKvStore(withBundle).read("tenants/t1/db")).containsEntry("password", "pw-tls-1");
        }
    }
}
