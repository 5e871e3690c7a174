package dev.backplane.plugins.vault;

import static dev.backplane.plugins.vault.EveryOperation.call;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.backplane.kernel.testing.VaultDouble;
import dev.backplane.plugin.api.Connector;
import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.Credential;
import dev.backplane.plugin.api.ErrorCode;
import dev.backplane.plugin.api.Fingerprint;
import dev.backplane.plugin.api.HttpPreview;
import dev.backplane.plugin.api.OperationResult;
import dev.backplane.plugin.api.TargetSpec;
import dev.backplane.plugin.api.testkit.RecordingContext;
import java.io.IOException;
import java.net.ServerSocket;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A vault-1.x session against the Vault double: what each operation sends, returns and refuses. */
class VaultSessionTest {

    private static final String SECRET = "s3cr3t-" + UUID.randomUUID();
    private VaultDouble vault;
    private final RecordingContext ctx = new RecordingContext();

    @BeforeEach
    void start() throws IOException {
        vault = new VaultDouble("secret");
        vault.put("apps/web", Map.of("password", SECRET, "user", "web"));
        vault.putV1("legacy/db", Map.of("password", SECRET));
    }

    @AfterEach
    void stop() {
        vault.close();
    }

    private TargetSpec target(Map<String, Object> extras) {
        Map<String, Object> all = new java.util.HashMap<>(Map.of("scheme", "http"));
        all.putAll(extras);
        return new TargetSpec("v", "vault", "127.0.0.1", vault.port(), Optional.empty(), true, Optional.empty(),
                Optional.empty(), all);
    }

    private Connector open(String token) {
        return open(token, Map.of());
    }

    private Connector open(String token, Map<String, Object> extras) {
        return new VaultConnectorFactory().open(ctx, target(extras), new Credential(Map.of("token", token)));
    }

    private static Object value(OperationResult r) {
        assertThat(r).isNotInstanceOf(OperationResult.Failure.class);
        return r instanceof OperationResult.Rows rows ? rows.rows() : ((OperationResult.Document) r).value();
    }

    @Test
    void anIssuedPrivateKeyIsStagedAndOnlyItsRefReturned() {
        String key = "-----BEGIN EC PRIVATE KEY-----\nissuedkey" + UUID.randomUUID() + "\n-----END EC PRIVATE KEY-----";
        vault.issuedPrivateKey(key);
        Map<String, Object> issue = Map.of("role", "web", "common_name", "www.example.com",
                "alt_names", List.of("api.example.com"), "ttl", "24h");
        try (Connector c = open(VaultDouble.ROOT_TOKEN)) {
            @SuppressWarnings("unchecked")
            Map<String, Object> cert = (Map<String, Object>) value(c.invoke(call("vault.pki.issue", issue)));
            String ref = (String) cert.get("private_key_ref");
            assertThat(ctx.staged()).containsOnlyKeys(ref);
            assertThat(ctx.staged().get(ref)).containsEntry("private_key", key).containsEntry("private_key_type", "ec");
            assertThat(cert).doesNotContainKey("private_key").containsEntry("serial_number",
                    vault.issuedSerials().get(0));
            assertThat(cert.toString()).doesNotContain(key).doesNotContain("PRIVATE KEY");
            assertThat(ctx.logLines()).noneMatch(l -> l.contains("issuedkey"));
            HttpPreview preview = c.preview(call("vault.pki.issue", issue)).orElseThrow();
            assertThat(preview.method()).isEqualTo("POST");
            assertThat(preview.path()).isEqualTo("/v1/pki/issue/web");
            assertThatThrownBy(() -> c.invoke(call("vault.pki.issue", Map.of("role", "web", "common_name", "a b"))))
                    .isInstanceOf(ConnectorException.class).hasMessageContaining("common_name");
            assertThatThrownBy(() -> c.invoke(call("vault.pki.issue", Map.of("role", "web", "common_name", "x.example",
                    "ttl", "1y")))).isInstanceOf(ConnectorException.class).hasMessageContaining("ttl");
        }
        // a kernel that cannot stage: the call fails and says so, without the key
        dev.backplane.plugin.api.ConnectorContext plain = new dev.backplane.plugin.api.ConnectorContext() {
            public java.net.http.HttpClient httpClient() { return ctx.httpClient(); }
            public javax.net.ssl.SSLContext sslContext() { return ctx.sslContext(); }
            public javax.net.SocketFactory socketFactory() { return ctx.socketFactory(); }
            public java.time.Clock clock() { return ctx.clock(); }
            public System.Logger logger() { return ctx.logger(); }
            public boolean cancelled() { return false; }
            public java.time.Duration timeout() { return ctx.timeout(); }
        };
        try (Connector c = new VaultConnectorFactory().open(plain, target(Map.of()),
                new Credential(Map.of("token", VaultDouble.ROOT_TOKEN)))) {
            OperationResult r = c.invoke(call("vault.pki.issue", issue));
            assertThat(r).isInstanceOf(OperationResult.Failure.class);
            assertThat(((OperationResult.Failure) r).message()).contains("cannot stage").doesNotContain("issuedkey");
        }
    }

    @Test
    void readsAnswerKeyNamesAndMetadataNeverValues() {
        try (Connector c = open(VaultDouble.ROOT_TOKEN)) {
            Object v2 = value(c.invoke(call("vault.kv.read", Map.of("path", "apps/web"))));
            assertThat(v2.toString()).contains("keys=[password, user]").contains("version=1").doesNotContain(SECRET);
            Object v1 = value(c.invoke(call("vault.kv.read", Map.of("path", "legacy/db", "kv_version", 1,
                    "mount", VaultDouble.KV1_MOUNT))));
            assertThat(v1.toString()).contains("keys=[password]").doesNotContain(SECRET);
            assertThat(vault.exchanges().stream().filter(x -> x.pathAndQuery().startsWith("/v1/secret/")).toList())
                    .as("KV v2 reads use subkeys: the value never even crosses the wire")
                    .allSatisfy(x -> assertThat(x.responseBody()).doesNotContain(SECRET));
            Object list = value(c.invoke(call("vault.kv.list", Map.of())));
            assertThat(list.toString()).contains("key=apps, folder=true, path=apps/");
            Object self = value(c.invoke(call("vault.token.lookup-self", Map.of())));
            assertThat(self.toString()).contains("policies=[root]").doesNotContain(VaultDouble.ROOT_TOKEN);
            assertThat(value(c.invoke(call("vault.kv.list", Map.of("path", "nothing/here"))))).asList().isEmpty();
        }
    }

    @Test
    void writesChangeVaultAndNeverEchoTheValues() {
        try (Connector c = open(VaultDouble.ROOT_TOKEN)) {
            var write = call("vault.kv.write", Map.of("path", "apps/web", "data", Map.of("password", "new-" + SECRET),
                    "cas", 1));
            HttpPreview preview = c.preview(write).orElseThrow();
            assertThat(preview.method()).isEqualTo("POST");
            assertThat(preview.path()).isEqualTo("/v1/secret/data/apps/web");
            assertThat(preview.body().orElseThrow().toString()).contains("password=<redacted>").contains("cas=1")
                    .doesNotContain(SECRET);
            Object written = value(c.invoke(write));
            assertThat(written.toString()).contains("version=2").contains("fields=[password]").doesNotContain(SECRET);
            assertThat(vault.current("secret", "apps/web").orElseThrow().path("password").asText())
                    .isEqualTo("new-" + SECRET);

            OperationResult stale = c.invoke(write);
            assertThat(stale).isInstanceOfSatisfying(OperationResult.Failure.class, f -> {
                assertThat(f.code()).isEqualTo(ErrorCode.CONNECTOR_ERROR);
                assertThat(f.message()).contains("check-and-set").doesNotContain(SECRET);
            });

            value(c.invoke(call("vault.kv.patch", Map.of("path", "apps/web", "data", Map.of("port", "5432")))));
            assertThat(vault.current("secret", "apps/web").orElseThrow().path("port").asText()).isEqualTo("5432");

            value(c.invoke(call("vault.kv.delete", Map.of("path", "apps/web"))));
            assertThat(value(c.invoke(call("vault.kv.versions", Map.of("path", "apps/web")))).toString())
                    .contains("version=3, created_time=").contains("state=deleted, current=true");
            value(c.invoke(call("vault.kv.undelete", Map.of("path", "apps/web", "versions", List.of(3)))));
            value(c.invoke(call("vault.kv.destroy", Map.of("path", "apps/web", "versions", List.of(2)))));
            assertThat(value(c.invoke(call("vault.kv.versions", Map.of("path", "apps/web")))).toString())
                    .contains("version=2").contains("state=destroyed");

            Object rolled = value(c.invoke(call("vault.kv.rollback", Map.of("path", "apps/web", "version", 1))));
            assertThat(rolled.toString()).contains("rolled_back_to=1").contains("version=4").doesNotContain(SECRET);
            assertThat(vault.current("secret", "apps/web").orElseThrow().path("password").asText()).isEqualTo(SECRET);
            assertThat(c.invoke(call("vault.kv.rollback", Map.of("path", "apps/web", "version", 2))))
                    .as("a destroyed version has nothing to roll back to").isInstanceOf(OperationResult.Failure.class);

            var v1 = call("vault.kv.write", Map.of("path", "legacy/db", "kv_version", 1, "mount", VaultDouble.KV1_MOUNT,
                    "data", Map.of("password", "v1-" + SECRET)));
            assertThat(c.preview(v1).orElseThrow().body().orElseThrow().toString()).doesNotContain(SECRET);
            value(c.invoke(v1));
            assertThat(vault.current(VaultDouble.KV1_MOUNT, "legacy/db").orElseThrow().path("password").asText())
                    .isEqualTo("v1-" + SECRET);
            assertThat(ctx.logLines()).noneMatch(l -> l.contains(SECRET));
        }
    }

    @Test
    void systemWritesReachVault() {
        try (Connector c = open(VaultDouble.ROOT_TOKEN)) {
            value(c.invoke(call("vault.mount.enable", Map.of("path", "team/kv", "type", "kv", "kv_version", 2))));
            assertThat(vault.hasMount("team/kv")).isTrue();
            value(c.invoke(call("vault.mount.disable", Map.of("path", "team/kv"))));
            assertThat(vault.hasMount("team/kv")).isFalse();
            value(c.invoke(call("vault.policy.write", Map.of("name", "ci", "policy", "path \"x\" {}"))));
            assertThat(vault.hasPolicy("ci")).isTrue();
            assertThat(value(c.invoke(call("vault.policy.read", Map.of("name", "ci")))).toString())
                    .contains("policy=path \"x\" {}");
            value(c.invoke(call("vault.policy.delete", Map.of("name", "ci"))));
            assertThat(vault.hasPolicy("ci")).isFalse();
            assertThat(value(c.invoke(call("vault.lease.lookup", Map.of("lease_id", VaultDouble.LEASE_ID)))).toString())
                    .contains("renewable=true").contains("lease_id=" + VaultDouble.LEASE_ID);
            value(c.invoke(call("vault.lease.revoke", Map.of("lease_id", VaultDouble.LEASE_ID))));
            assertThat(vault.hasLease(VaultDouble.LEASE_ID)).isFalse();
            assertThat(c.preview(call("vault.mount.disable", Map.of("path", "secret"))).orElseThrow())
                    .isEqualTo(new HttpPreview("DELETE", "/v1/sys/mounts/secret", Map.of(), Optional.empty()));
        }
    }

    @Test
    void badInputIsRefusedBeforeAnythingIsSent() {
        try (Connector c = open(VaultDouble.ROOT_TOKEN)) {
            int before = vault.exchanges().size();
            List<Map<String, Object>> bad = List.of(Map.of("path", "../sys/mounts"), Map.of("path", "apps/../../sys"),
                    Map.of("path", "a b"), Map.of("path", "a?list=true"), Map.of("path", "/abs"), Map.of("path", "a/"),
                    Map.of("path", "a", "mount", "sys/.."), Map.of("path", "a", "kv_version", 3), Map.of());
            for (Map<String, Object> params : bad) {
                assertThatThrownBy(() -> c.invoke(call("vault.kv.read", params))).as(params.toString())
                        .isInstanceOfSatisfying(ConnectorException.class,
                                e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_PARAMS));
            }
            for (Map<String, Object> params : List.of(Map.<String, Object>of("path", "a", "data", Map.of()),
                    Map.of("path", "a", "data", Map.of("k", 5)), Map.of("path", "a", "data", Map.of("bad key", "v")),
                    Map.of("path", "a", "data", Map.of("k", SECRET), "cas", -1))) {
                assertThatThrownBy(() -> c.invoke(call("vault.kv.write", params)))
                        .isInstanceOfSatisfying(ConnectorException.class, e -> {
                            assertThat(e.code()).isEqualTo(ErrorCode.INVALID_PARAMS);
                            assertThat(e.getMessage()).doesNotContain(SECRET);
                        });
            }
            assertThatThrownBy(() -> c.invoke(call("vault.kv.destroy", Map.of("path", "a"))))
                    .as("destroy names its versions").isInstanceOf(ConnectorException.class);
            assertThatThrownBy(() -> c.invoke(call("vault.pki.cert-read", Map.of("serial", "zz"))))
                    .isInstanceOf(ConnectorException.class);
            assertThat(vault.exchanges()).hasSize(before);
        }
    }

    @Test
    void aRefusedTokenIsAuthFailedAPolicyRefusalIsNot() {
        try (Connector c = open("s.unknown")) {
            assertThatThrownBy(() -> c.invoke(call("vault.kv.list", Map.of())))
                    .isInstanceOfSatisfying(ConnectorException.class,
                            e -> assertThat(e.code()).isEqualTo(ErrorCode.CONNECTOR_AUTH_FAILED));
        }
        try (Connector c = open(VaultDouble.LIMITED_TOKEN)) {
            assertThat(c.invoke(call("vault.kv.list", Map.of()))).isInstanceOfSatisfying(OperationResult.Failure.class,
                    f -> {
                        assertThat(f.code()).isEqualTo(ErrorCode.CONNECTOR_ERROR);
                        assertThat(f.message()).contains("policies do not allow");
                        assertThat(f.extras()).containsEntry("http_status", 403);
                    });
        }
        try (Connector c = open("tok\r\nX-Injected: 1")) {
            assertThatThrownBy(() -> c.invoke(call("vault.kv.list", Map.of())))
                    .isInstanceOfSatisfying(ConnectorException.class, e -> {
                        assertThat(e.code()).isEqualTo(ErrorCode.CONNECTOR_ERROR);
                        assertThat(e.getMessage()).doesNotContain("Injected");
                    });
        }
    }

    @Test
    void theNamespaceGoesInItsHeader() {
        try (Connector c = open(VaultDouble.ROOT_TOKEN, Map.of("namespace", "team-a/dev"))) {
            value(c.invoke(call("vault.policy.list", Map.of())));
        }
        assertThat(vault.requests()).last().asString().endsWith("namespace=team-a/dev");
        assertThatThrownBy(() -> open(VaultDouble.ROOT_TOKEN, Map.of("namespace", "../x")))
                .isInstanceOfSatisfying(ConnectorException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.CONNECTOR_ERROR));
    }

    @Test
    void theProbeReadsSysHealthAndTellsOpenBaoApart() {
        try (Connector c = open("any")) {
            Fingerprint f = c.probe();
            assertThat(f.vendor()).contains("HashiCorp");
            assertThat(f.product()).contains("vault");
            assertThat(f.version()).contains("1.15.2");
            assertThat(f.probeMethod()).isEqualTo("GET /v1/sys/health");
            vault.version("2.1.0");
            Fingerprint bao = c.probe();
            assertThat(bao.vendor()).contains("OpenBao");
            assertThat(bao.product()).contains("openbao");
            vault.sealed(true);
            assertThat(c.probe().version()).as("a sealed Vault still answers its version").contains("2.1.0");
        }
        try (Connector c = open(VaultDouble.ROOT_TOKEN)) {
            assertThat(value(c.invoke(call("vault.sys.health", Map.of()))).toString()).contains("sealed=true");
            assertThat(c.invoke(call("vault.kv.list", Map.of())).toString()).doesNotContain(VaultDouble.ROOT_TOKEN);
        }
    }

    @Test
    void aClosedPortIsUnreachable() throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        TargetSpec closed = new TargetSpec("v", "vault", "127.0.0.1", port, Optional.empty(), true, Optional.empty(),
                Optional.empty(), Map.of("scheme", "http"));
        try (Connector c = new VaultConnectorFactory().open(ctx, closed, new Credential(Map.of("token", "t")))) {
            assertThatThrownBy(c::probe).isInstanceOfSatisfying(ConnectorException.class,
                    e -> assertThat(e.code()).isEqualTo(ErrorCode.CONNECTOR_UNREACHABLE));
        }
    }
}
