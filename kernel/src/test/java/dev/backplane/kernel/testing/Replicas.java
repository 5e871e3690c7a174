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
 *
 * @param a one replica
 * @param b the other replica
 * @param issuer the issuer both replicas trust, for tokens other than {@link #admin()}
 * @param tenant the tenant the replicas' tests act in (new for each start)
 * @param pg the database both replicas use
 */
public record Replicas(TestKernel a, TestKernel b, TestIssuer issuer, UUID tenant, ExternalPostgres pg)
        implements AutoCloseable {

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
            // both replicas share work/shared (and so its kv files): one file store, as a single replica's would be
            env.put("SVC_CREDENTIALS_FILE_SINGLE_REPLICA", "true");
            env.putAll(settings);
            a = TestKernel.start(work.resolve("shared"), env);
            Replicas replicas = new Replicas(a, TestKernel.start(work.resolve("shared"), env), issuer, UUID.randomUUID(),
                    pg);
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
