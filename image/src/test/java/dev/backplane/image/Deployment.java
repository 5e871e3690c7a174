package dev.backplane.image;

import static dev.backplane.image.Http.awaitTrue;
import static dev.backplane.image.Http.freePort;
import static dev.backplane.image.Http.status;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.backplane.kernel.testing.CliRunner;
import dev.backplane.kernel.testing.ExternalPostgres;
import dev.backplane.kernel.testing.Fixtures;
import dev.backplane.kernel.testing.KeycloakServer;
import dev.backplane.kernel.testing.TempDirs;
import dev.backplane.kernel.testing.VaultDouble;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.testcontainers.containers.BindMode;

/**
 * What every container drill stands on: the image loaded into podman, Debian's PostgreSQL (one cluster, more on
 * demand), the suite's real Keycloak with the realm bootstrapped by the CLI for a tenant and its users, the Vault
 * double, kernel containers of the image run through Testcontainers ({@link KernelContainer}: host network,
 * read-only root, uid 10001) and haproxy in front of them. {@link #close} removes all of it, whichever parts started.
 */
final class Deployment implements AutoCloseable {

    static final String REALM = "svc";
    private static final Pattern DEVICE_URL = Pattern.compile("(http://\\S+/device\\?user_code=\\S+)");

    /** One kernel container: its name, API port and management port. */
    record Replica(String name, int port, int management) {
        String url() {
            return "http://127.0.0.1:" + port;
        }

        String managementUrl() {
            return "http://127.0.0.1:" + management;
        }
    }

    private final UUID tenant = UUID.randomUUID();
    private final String password = "pw-" + UUID.randomUUID();
    private final int lbPort = freePort();
    private final List<ExternalPostgres> databases = new ArrayList<>();
    private final List<Replica> replicas = new ArrayList<>();
    private final Map<String, KernelContainer> containers = new LinkedHashMap<>();
    private final String drill;
    private final String image;
    private Podman podman;
    private Path work;
    private KeycloakServer keycloak;
    private VaultDouble vault;
    private Haproxy haproxy;

    private Deployment(String drill) {
        this.drill = drill;
        this.image = ImageIT.IMAGE + "-" + drill + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /**
     * Loads the image and starts PostgreSQL, Vault and Keycloak with {@code users} bootstrapped (each one an admin
     * of {@link #tenant}, password {@link #password}); skips the test where podman or haproxy cannot run.
     */
    static Deployment start(String drill, String... users) throws Exception {
        Podman podman = Podman.require();
        assumeTrue(Files.isRegularFile(ImageIT.ARCHIVE), "no image archive at " + ImageIT.ARCHIVE);
        assumeTrue(Files.isExecutable(Path.of("/usr/sbin/haproxy")), "haproxy is not installed (bin/test-deps.sh "
                + "installs it where it can)");
        Deployment d = new Deployment(drill);
        try {
            d.podman = podman;
            // other sessions on this machine load and remove the same tag: the drill runs its own tag of the archive
            String id = podman.run(List.of("load", "-q", "-i", ImageIT.ARCHIVE.toString())).ok().out();
            podman.run(List.of("tag", id.substring(id.lastIndexOf(' ') + 1), d.image)).ok();
            d.work = TempDirs.create("svc-" + drill);
            d.database();
            d.vault = new VaultDouble("secret");
            d.keycloak = KeycloakServer.start(Files.createDirectories(d.work.resolve("keycloak")));
            d.bootstrap(users);
            return d;
        } catch (Exception | AssertionError e) {
            d.close();
            throw e;
        }
    }

    private void bootstrap(String... users) throws Exception {
        CliRunner admin = new CliRunner(work.resolve("admin-config"))
                .env("KEYCLOAK_ADMIN_USER", KeycloakServer.ADMIN)
                .env("KEYCLOAK_ADMIN_PASSWORD", keycloak.adminPassword())
                .env("SVC_BOOTSTRAP_USER_PASSWORD", password);
        for (String user : users) {
            CliRunner.Result r = admin.run("admin", "idp", "bootstrap-clients", "--keycloak-base-url", keycloak.url(),
                    "--realm", REALM, "--admin-user-username", user, "--tenant-id", tenant.toString());
            assertThat(r.exitCode()).as(r.toString()).isZero();
        }
        assertThat(keycloak.admin("PUT", "/" + REALM, Map.of("oauth2DevicePollingInterval", 1)).statusCode())
                .isEqualTo(204);
    }

    /** Starts one more PostgreSQL cluster (the first one is {@link #pg}); it goes away with the deployment. */
    ExternalPostgres database() throws Exception {
        ExternalPostgres pg = ExternalPostgres.start();
        databases.add(pg);
        if (System.getenv("SVC_REQUIRE_FULL_SUITE") != null) {
            assertThat(pg.systemServer()).as("CI runs this against Debian's PostgreSQL server").isTrue();
        }
        return pg;
    }

    /**
     * Starts a container of {@code image} on {@code db}, with {@code plugins} mounted read-only as its plugin
     * directory and its own data volume; {@code env} adds to (or overrides) the settings every replica gets. Returns
     * at once: {@link #awaitReady} waits for it.
     */
    Replica startReplica(String image, ExternalPostgres db, Path plugins, Map<String, String> env) throws Exception {
        Replica r = new Replica("svc-" + drill + "-" + (replicas.size() + 1) + "-" + UUID.randomUUID().toString()
                .substring(0, 8), freePort(), freePort());
        Path data = Files.createDirectories(work.resolve(r.name()));
        assertThat(new ProcessBuilder("chown", "10001:10001", data.toString()).start().waitFor()).isZero();
        Map<String, String> all = new LinkedHashMap<>(db.addTo(new HashMap<>()));
        all.put("SVC_SERVER_HOST", "127.0.0.1");
        all.put("SVC_SERVER_PORT", String.valueOf(r.port()));
        all.put("SVC_SERVER_MANAGEMENT_PORT", String.valueOf(r.management()));
        all.put("SVC_SERVER_SHUTDOWN_DELAY_SECONDS", "3");
        all.put("SVC_SERVER_SHUTDOWN_DRAIN_SECONDS", "20");
        all.put("SVC_IDENTITY_ISSUER", issuer());
        all.put("SVC_VAULT_ADDR", vault.address());
        all.put("SVC_VAULT_TOKEN", VaultDouble.ROOT_TOKEN);
        all.put("SVC_PLUGIN_DIR", "/plugins");
        all.put("SVC_TARGET_SSRF_ALLOWLIST", "127.0.0.0/8"); // the drills' targets are on loopback
        all.put("SVC_PUBLIC_URL", lbUrl()); // clients reach every replica through the load balancer
        all.putAll(env);
        KernelContainer container = new KernelContainer(image, r.name()).env(all)
                .mount(data, "/var/lib/svc", BindMode.READ_WRITE).mount(plugins, "/plugins", BindMode.READ_ONLY);
        replicas.add(r);
        containers.put(r.name(), container);
        container.start();
        return r;
    }

    /** {@link #startReplica} of this build's {@link #image}, and waits until it is ready. */
    Replica replica(ExternalPostgres db, Path plugins, Map<String, String> env) throws Exception {
        Replica r = startReplica(image, db, plugins, env);
        awaitReady(r);
        return r;
    }

    /** Waits for {@code /health/ready} on the management port; returns how long it took. */
    Duration awaitReady(Replica r) throws Exception {
        long t0 = System.nanoTime();
        awaitTrue(r.name() + " ready (podman logs " + r.name() + ")", () -> status("GET", r.managementUrl()
                + "/health/ready", null, null) == 200, 120);
        Duration took = Duration.ofNanos(System.nanoTime() - t0);
        System.out.printf("%s: %s ready in %d ms%n", drill, r.name(), took.toMillis());
        return took;
    }

    /** SIGTERM, then waits up to {@code seconds} for the exit before killing it (the Docker API's stop). */
    void stop(Replica r, int seconds) {
        containers.get(r.name()).terminate(seconds);
    }

    String logs(Replica r) {
        return containers.get(r.name()).getLogs();
    }

    /** Starts haproxy on {@link #lbUrl} in front of {@code servers}; {@link Haproxy#servers} changes them. */
    Haproxy balance(List<Replica> servers) throws Exception {
        haproxy = Haproxy.start(work, lbPort, servers);
        return haproxy;
    }

    /** {@code svc login <url>}: the device flow, approved on Keycloak's own pages; returns the access token. */
    String login(String user, String url) throws Exception {
        Path home = work.resolve("cli-" + user + "-" + UUID.randomUUID().toString().substring(0, 8));
        CliRunner.Running running = new CliRunner(home).start("login", url, "--insecure-allow-http");
        String device;
        try {
            device = running.awaitErr(DEVICE_URL, Duration.ofSeconds(30));
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "\n" + running.err(), e);
        }
        keycloak.approveDevice(device, user, password);
        CliRunner.Result done = running.result().get(60, TimeUnit.SECONDS);
        assertThat(done.exitCode()).as(done.toString()).isZero();
        return Http.JSON.readTree(home.resolve("svc/tokens.json").toFile()).findValue("access_token").asText();
    }

    /** This build's image, under a tag of the deployment's own (removed with it). */
    String image() {
        return image;
    }

    Podman podman() {
        return podman;
    }

    /** The first PostgreSQL cluster. */
    ExternalPostgres pg() {
        return databases.getFirst();
    }

    VaultDouble vault() {
        return vault;
    }

    UUID tenant() {
        return tenant;
    }

    String issuer() {
        return keycloak.url() + "/realms/" + REALM;
    }

    /** Where haproxy listens (the port is chosen up front, so that replicas can name it as their public URL). */
    String lbUrl() {
        return "http://127.0.0.1:" + lbPort;
    }

    /** A fresh directory under the deployment's temp dir, removed with it. */
    Path dir(String name) throws Exception {
        return Files.createDirectories(work.resolve(name));
    }

    @Override
    public void close() throws Exception {
        try {
            Fixtures.closeAll(haproxy);
        } finally {
            if (podman != null) {
                containers.values().forEach(KernelContainer::close);
                podman.run(List.of("rmi", image));
            }
            Fixtures.closeAll(Stream.concat(Stream.of(keycloak, vault), databases.stream())
                    .toArray(AutoCloseable[]::new));
            if (work != null) {
                try (Stream<Path> files = Files.walk(work)) {
                    files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
                }
            }
        }
    }
}
