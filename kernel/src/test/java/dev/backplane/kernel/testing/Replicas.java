package dev.backplane.kernel.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;

/**
 * Two kernels on one PostgreSQL reached by URL, as replicas behind a load balancer, with a fresh tenant
 * and its admin's token. They share one data directory too: the embedded kv store is a directory of
 * files, shared like a Vault would be. Started, they are ready: both change feeds listen.
 */
public final class Replicas implements AutoCloseable {

    private final ExternalPostgres pg;
    private final TestIssuer issuer;
    private final TestKernel a;
    private final TestKernel b;
    private final UUID tenant = UUID.randomUUID();

    private Replicas(ExternalPostgres pg, TestIssuer issuer, TestKernel a, TestKernel b) {
        this.pg = pg;
        this.issuer = issuer;
        this.a = a;
        this.b = b;
    }

    /**
     * Starts both replicas with {@link TestKernel#settings} (plugins from {@code work/plugins}, created if
     * missing) on a new database, plus {@code settings}; their data directory is {@code work/shared}.
     */
    public static Replicas start(Path work, Map<String, String> settings) throws Exception {
        ExternalPostgres pg = ExternalPostgres.start();
        TestIssuer issuer = new TestIssuer();
        TestKernel a = null;
        try {
            Map<String, String> env = pg.addTo(TestKernel.settings(issuer,
                    Files.createDirectories(work.resolve("plugins"))));
            env.putAll(settings);
            a = TestKernel.start(work.resolve("shared"), env);
            Replicas replicas = new Replicas(pg, issuer, a, TestKernel.start(work.resolve("shared"), env));
            replicas.awaitChangeFeeds();
            return replicas;
        } catch (Exception | AssertionError e) {
            if (a != null) {
                a.close();
            }
            issuer.close();
            pg.close();
            throw e;
        }
    }

    private void awaitChangeFeeds() throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (!(a.kernel().changeFeed().live() && b.kernel().changeFeed().live())) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting until both change feeds listen");
            }
            Thread.sleep(20);
        }
    }

    public TestKernel a() {
        return a;
    }

    public TestKernel b() {
        return b;
    }

    /** The issuer both replicas trust, for tokens other than {@link #admin()}. */
    public TestIssuer issuer() {
        return issuer;
    }

    /** The tenant the replicas' tests act in (new for each start). */
    public UUID tenant() {
        return tenant;
    }

    /** A tenant_admin token of {@link #tenant()}. */
    public String admin() {
        return issuer.token("admin", tenant, "tenant_admin");
    }

    @Override
    public void close() throws Exception {
        try (pg; issuer; a; b) {
            // closed in reverse: b, a, the issuer, then the database
        }
    }
}
