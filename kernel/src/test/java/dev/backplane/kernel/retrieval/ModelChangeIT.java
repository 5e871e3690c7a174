package dev.backplane.kernel.retrieval;

import static dev.backplane.kernel.retrieval.LiveDatabase.waitFor;
import static org.assertj.core.api.Assertions.assertThat;

import dev.backplane.kernel.kb.KbService;
import dev.backplane.kernel.persistence.PeriodicJob;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A change of the embedding model on a live database with two "replicas" (two engines on one database and change
 * feed): the old model serves while the new one fills in, writers on either replica write both, every dense search
 * meanwhile finds what it should (a ranking mixing a query of one model with vectors of the other would not), both
 * replicas switch together, and the old model's rows go after the grace.
 */
class ModelChangeIT {

    private static final EmbeddingModels.Model OLD = EmbeddingModels.named("all-minilm-l6-v2-q").orElseThrow();
    private static final EmbeddingModels.Model NEW = EmbeddingModels.named("bge-small-en-v1.5-q").orElseThrow();

    private static final List<String> TOPICS = List.of("postgres failover and replica promotion",
            "rotating the TLS certificate of the ingress", "kafka consumer lag after a broker restart",
            "redis evicting keys under memory pressure", "vault unseal after a node reboot",
            "dns resolution failing inside kubernetes pods", "disk pressure evictions on a kubelet",
            "prometheus scrape targets marked down", "rolling back a bad helm release", "etcd leader elections too often",
            "haproxy health checks flapping", "elasticsearch shard allocation stuck", "rabbitmq queue growing forever",
            "mysql replication lag during backups", "cassandra compaction falling behind", "grafana dashboards empty",
            "keycloak login slow at peak", "nginx returning 502 after deploy", "terraform state lock not released",
            "cron job skipped its nightly run");

    @Test
    void aModelChangeFillsInBehindSearchesAndSwitchesEveryReplicaAtOnce() throws Exception {
        try (LiveDatabase live = LiveDatabase.start("svc-model-change")) {
            UUID tenant = UUID.randomUUID();
            RetrievalEngine a = RetrievalEngine.following(live.jdbc(), live.feed(), new Embedder(OLD), Duration.ZERO);
            KbService kbA = new KbService(live.jdbc(), a);
            for (int i = 0; i < TOPICS.size(); i++) {
                kbA.add(tenant, "topic-" + i, "How we handle " + TOPICS.get(i) + ". Steps, owners and checks.", Map.of(),
                        "it");
            }
            assertThat(a.model().active()).isEqualTo(OLD.name());
            assertThat(rows(live, OLD)).isEqualTo(TOPICS.size());

            // a second replica configured with the new model: it serves the old one until the new one is complete
            RetrievalEngine b = RetrievalEngine.following(live.jdbc(), live.feed(), new Embedder(NEW), Duration.ZERO);
            KbService kbB = new KbService(live.jdbc(), b);
            io.micrometer.core.instrument.simple.SimpleMeterRegistry metrics =
                    new io.micrometer.core.instrument.simple.SimpleMeterRegistry();
            b.meterInto(metrics);
            assertThat(b.model()).isEqualTo(new RetrievalEngine.ModelStatus(OLD.name(), java.util.Optional.of(NEW.name()),
                    b.model().entriesLacking()));
            waitFor(() -> a.model().filling().isPresent(), "replica a hears that the model changes");
            assertAllFound(kbA, tenant, "a, before the fill");
            assertAllFound(kbB, tenant, "b, before the fill");

            // written during the change, on either replica: with both models' vectors
            kbA.add(tenant, "written-on-a", "How we handle " + TOPICS.getFirst() + " on the standby site.", Map.of(), "it");
            kbB.add(tenant, "written-on-b", "How we handle " + TOPICS.getLast() + " in the staging cluster.", Map.of(), "it");
            for (String slug : List.of("written-on-a", "written-on-b")) {
                assertThat(live.jdbc().query("SELECT DISTINCT c.model FROM retrieval_chunks c JOIN kb_entries e "
                        + "ON e.id = c.entry_id WHERE e.slug = ? ORDER BY 1", rs -> rs.getString(1), slug))
                        .as(slug).containsExactlyInAnyOrder(OLD.name(), NEW.name());
            }
            // an orphan (chunks without their entry): the fill drops it rather than wait for a text that never comes
            UUID orphan = UUID.randomUUID();
            live.jdbc().inTransaction(c -> {
                ChunkStore.insert(c, tenant, "kb", orphan, OLD.name(), List.of(new Embedder(OLD).embed("orphan")));
                return null;
            });

            // searches on both replicas go on, and stay right, while b's job fills the new model in
            AtomicBoolean filling = new AtomicBoolean(true);
            List<String> wrong = new CopyOnWriteArrayList<>();
            AtomicInteger searched = new AtomicInteger();
            Thread searcher = Thread.ofVirtual().start(() -> {
                while (filling.get()) {
                    int i = searched.getAndIncrement() % TOPICS.size();
                    for (KbService kb : List.of(kbA, kbB)) {
                        List<KbService.Hit> hits = kb.search(tenant, TOPICS.get(i), 3, Map.of(), RetrievalEngine.Mode.DENSE);
                        if (misplaced(hits, i)) {
                            wrong.add(TOPICS.get(i) + " -> " + hits.stream().map(KbService.Hit::slug).toList());
                        }
                    }
                }
            });
            PeriodicJob fill = job(b);
            int filled = fill.body().getAsInt();
            filling.set(false);
            searcher.join();
            assertThat(filled).as("entries filled in (the orphan is dropped, not filled)").isEqualTo(TOPICS.size());
            assertThat(wrong).as("dense searches during the fill (%d)", searched.get()).isEmpty();
            assertThat(searched.get()).isPositive();

            // switched: b at once, a through the change feed; nothing lacks the new model, the orphan is gone
            assertThat(b.model()).isEqualTo(new RetrievalEngine.ModelStatus(NEW.name(), java.util.Optional.empty(), 0));
            waitFor(() -> a.model().active().equals(NEW.name()), "replica a switches through the feed");
            assertThat(live.jdbc().queryOne("SELECT count(*) FROM retrieval_chunks WHERE entry_id = ?",
                    rs -> rs.getLong(1), orphan)).hasValue(0L);
            assertAllFound(kbA, tenant, "a, after the switch");
            assertAllFound(kbB, tenant, "b, after the switch");
            // the replaced index's cache was emptied when it closed: a series still bound to it would read 0
            assertThat(slicesHeld(metrics)).as("the slice cache's series follow the index that serves now").isPositive();
            assertThat(metrics.get("cache.gets").tags("cache", "retrieval.vector.slices", "result", "hit").functionCounter()
                    .count()).as("searches' lookups count as hits").isPositive();
            assertThat(rows(live, NEW)).isEqualTo(TOPICS.size() + 2);

            // the next run retires the old model's rows (grace zero here; a minute in the kernel)
            fill.body().getAsInt();
            assertThat(rows(live, OLD)).isZero();
            assertAllFound(kbB, tenant, "b, after the old rows went");
            // a new entry now has the new model's vectors only
            kbA.add(tenant, "after", "How we handle " + TOPICS.get(3) + " after the switch.", Map.of(), "it");
            assertThat(live.jdbc().query("SELECT DISTINCT c.model FROM retrieval_chunks c JOIN kb_entries e "
                    + "ON e.id = c.entry_id WHERE e.slug = 'after'", rs -> rs.getString(1))).containsExactly(NEW.name());

            // configured back to the old model: it fills in again, the other way
            RetrievalEngine c = RetrievalEngine.following(live.jdbc(), live.feed(), new Embedder(OLD), Duration.ZERO);
            assertThat(c.model().filling()).hasValue(OLD.name());
            KbService kbC = new KbService(live.jdbc(), c);
            job(c).body().getAsInt();
            assertThat(c.model().active()).isEqualTo(OLD.name());
            waitFor(() -> a.model().active().equals(OLD.name()) && b.model().active().equals(OLD.name()),
                    "every replica follows");
            assertAllFound(kbC, tenant, "c, back on the old model");
            for (RetrievalEngine e : List.of(a, b, c)) {
                e.close();
            }
        }
    }

    @Test
    void anEmptyDatabaseTakesTheConfiguredModelAtOnce() throws Exception {
        try (LiveDatabase live = LiveDatabase.start("svc-model-empty")) {
            RetrievalEngine engine = RetrievalEngine.following(live.jdbc(), live.feed(), new Embedder(NEW));
            assertThat(engine.model()).isEqualTo(new RetrievalEngine.ModelStatus(NEW.name(), java.util.Optional.empty(), 0));
            UUID tenant = UUID.randomUUID();
            KbService kb = new KbService(live.jdbc(), engine);
            kb.add(tenant, "only", "How we handle " + TOPICS.get(2) + ".", Map.of(), "it");
            assertThat(rows(live, NEW)).isEqualTo(1);
            assertThat(rows(live, OLD)).isZero();
            engine.close();
        }
    }

    /** The vector slices held, as the slice cache's {@code cache.size} series reports them. */
    private static double slicesHeld(io.micrometer.core.instrument.MeterRegistry metrics) {
        return metrics.get("cache.size").tag("cache", "retrieval.vector.slices").gauge().value();
    }

    private static PeriodicJob job(RetrievalEngine engine) {
        return engine.periodicJobs().stream().filter(j -> j.name().equals("retrieval-model-change")).findFirst()
                .orElseThrow();
    }

    private static long rows(LiveDatabase live, EmbeddingModels.Model model) {
        return live.jdbc().queryOne("SELECT count(*) FROM retrieval_chunks WHERE model = ?", rs -> rs.getLong(1),
                model.name()).orElseThrow();
    }

    /**
     * Whether topic {@code i}'s search put another topic's entry first (an entry written later about the same topic
     * may come first; a ranking of vectors of another model than the query's would put any topic first).
     */
    private static boolean misplaced(List<KbService.Hit> hits, int i) {
        return hits.isEmpty() || hits.getFirst().slug().startsWith("topic-") && !hits.getFirst().slug().equals("topic-" + i);
    }

    /** Each topic's dense search finds its own entry first. */
    private static void assertAllFound(KbService kb, UUID tenant, String when) {
        List<String> wrong = new ArrayList<>();
        for (int i = 0; i < TOPICS.size(); i++) {
            List<KbService.Hit> hits = kb.search(tenant, TOPICS.get(i), 3, Map.of(), RetrievalEngine.Mode.DENSE);
            if (misplaced(hits, i)) {
                wrong.add(TOPICS.get(i) + " -> " + hits.stream().map(KbService.Hit::slug).toList());
            }
        }
        assertThat(wrong).as(when).isEmpty();
    }
}
