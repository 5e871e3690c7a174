package dev.backplane.bench;

import dev.backplane.kernel.retrieval.Embedder;
import java.util.List;
import java.util.Random;

/**
 * A synthetic operations knowledge base of any size: runbook-like entries of 40-50 words composed
 * from a vocabulary (service, symptom, situation, three actions, environment), each distinct.
 *
 * <p>Embedding 100,000 bodies with all-MiniLM-L6-v2 on this machine takes far longer than a
 * benchmark should (the bench reports the rate), so an entry's vector is composed the way its text
 * is: the sum of the embeddings of its parts, plus a little noise, normalised. Such vectors sit
 * where real ones do (the bench prints how close they come to the real embedding of the same text)
 * and cost a search exactly what real ones cost.
 */
public final class KbCorpus {

    static final List<String> SERVICES = List.of("postgres", "redis", "kafka", "nginx ingress", "envoy", "keycloak",
            "vault", "payments api", "checkout service", "search cluster", "elasticsearch", "rabbitmq", "etcd",
            "coredns", "the kubelet", "prometheus", "grafana", "loki", "the api gateway", "the auth service",
            "object storage", "the build runners", "the cdn", "mysql", "mongodb", "zookeeper", "cassandra",
            "the ledger service", "the notification worker", "the image resizer", "haproxy", "the vpn gateway",
            "the mail relay", "the scheduler", "the batch importer", "the billing job", "memcached", "clickhouse",
            "the feature flag service", "the session store");
    static final List<String> SYMPTOMS = List.of("restarts in a loop", "answers with 502 errors", "runs out of connections",
            "fills its disk", "has high p99 latency", "loses its leader", "leaks memory until it is OOM killed",
            "fails its health checks", "rejects TLS handshakes", "drops messages", "replicates with growing lag",
            "hangs on start-up", "logs authentication failures", "returns stale data", "times out on DNS lookups",
            "pegs the CPU", "runs out of file descriptors", "corrupts its index", "refuses new sessions",
            "serves an expired certificate", "deadlocks under write load", "evicts hot keys", "queues requests forever",
            "crashes on a malformed payload", "slows to a crawl after a failover", "skips scheduled runs",
            "double-processes events", "throttles every client", "loses its volume mount", "flaps between ready and not ready");
    static final List<String> SITUATIONS = List.of("after a deploy", "during the nightly batch", "under peak load",
            "after a node drain", "when the certificate rotates", "after a config change", "on Monday mornings",
            "during a database failover", "after a kernel upgrade", "when the disk is nearly full",
            "after a network partition", "during a backup", "when autoscaling kicks in", "after a secret rotation",
            "during a region failover", "after a dependency upgrade", "when traffic spikes", "after a restart",
            "while a migration runs", "when the cache is cold");
    static final List<String> ACTIONS = List.of("check the connection pool settings", "roll back the last release",
            "scale out by two replicas", "raise the memory limit", "rotate the credentials", "drain and cordon the node",
            "restart the leader", "flush the cache", "read the previous container logs", "compare the config with git",
            "run the consistency check", "increase the timeout", "page the owning team", "open an incident",
            "fail over to the standby", "clear the dead letter queue", "rebuild the index", "renew the certificate",
            "vacuum the large tables", "lower the batch size", "pin the previous image tag", "add a read replica",
            "tune the garbage collector", "check the disk latency graphs", "reset the circuit breaker",
            "re-run the failed job", "raise the file descriptor limit", "trim the retention period",
            "compact the log segments", "verify the DNS records", "restore from the latest snapshot",
            "disable the feature flag", "throttle the noisy tenant", "resync the replica", "reissue the tokens",
            "check the load balancer health", "increase the partition count", "move the pod to another node",
            "lower the log level", "update the firewall rule");
    static final List<String> ENVIRONMENTS = List.of("prod", "staging", "eu-west", "us-east", "ap-south", "edge");

    /** The parts an entry is made of. */
    record Parts(int service, int symptom, int situation, int action1, int action2, int action3, int environment,
                 int host) {
    }

    static Parts parts(int i) {
        Random r = new Random(0x5eed_0000L + i);
        return new Parts(r.nextInt(SERVICES.size()), r.nextInt(SYMPTOMS.size()), r.nextInt(SITUATIONS.size()),
                r.nextInt(ACTIONS.size()), r.nextInt(ACTIONS.size()), r.nextInt(ACTIONS.size()),
                r.nextInt(ENVIRONMENTS.size()), i);
    }

    public static String slug(int i) {
        Parts p = parts(i);
        return (SERVICES.get(p.service()) + " " + SYMPTOMS.get(p.symptom())).toLowerCase(java.util.Locale.ROOT)
                .replaceAll("[^a-z0-9]+", "-").replaceAll("^-|-$", "") + "-" + i;
    }

    public static String body(int i) {
        Parts p = parts(i);
        return "When " + SERVICES.get(p.service()) + " " + SYMPTOMS.get(p.symptom()) + " " + SITUATIONS.get(p.situation())
                + ", first " + ACTIONS.get(p.action1()) + ", then " + ACTIONS.get(p.action2()) + ". If it happens again, "
                + ACTIONS.get(p.action3()) + " and note it in the runbook. Seen on " + ENVIRONMENTS.get(p.environment())
                + "-" + (p.host() % 97) + " (ticket OPS-" + (10_000 + p.host()) + ").";
    }

    /** The embedding of every vocabulary phrase, to compose entry vectors from. */
    public record Vocabulary(float[][] services, float[][] symptoms, float[][] situations, float[][] actions) {
        public static Vocabulary embed(Embedder embedder) {
            return new Vocabulary(embedAll(embedder, SERVICES), embedAll(embedder, SYMPTOMS),
                    embedAll(embedder, SITUATIONS), embedAll(embedder, ACTIONS));
        }

        private static float[][] embedAll(Embedder embedder, List<String> phrases) {
            return phrases.stream().map(embedder::embed).toArray(float[][]::new);
        }

        /** Entry {@code i}'s composed vector: its parts' embeddings summed (actions at half weight), noise, normalised. */
        public float[] vector(int i) {
            Parts p = parts(i);
            float[] v = new float[services[0].length];
            Random noise = new Random(i);
            for (int d = 0; d < v.length; d++) {
                v[d] = services[p.service()][d] + symptoms[p.symptom()][d] + 0.7f * situations[p.situation()][d]
                        + 0.5f * (actions[p.action1()][d] + actions[p.action2()][d] + actions[p.action3()][d])
                        + (float) (noise.nextGaussian() * 0.03);
            }
            return normalized(v);
        }
    }

    static float[] normalized(float[] v) {
        double norm = 0;
        for (float x : v) {
            norm += x * x;
        }
        float[] out = new float[v.length];
        for (int d = 0; d < v.length; d++) {
            out[d] = (float) (v[d] / Math.sqrt(norm));
        }
        return out;
    }

    static double cosine(float[] a, float[] b) {
        double s = 0;
        for (int d = 0; d < a.length; d++) {
            s += a[d] * b[d];
        }
        return s;
    }

    private static final java.util.concurrent.atomic.AtomicInteger ASKED = new java.util.concurrent.atomic.AtomicInteger();

    /**
     * The next query of a run (the argument is ignored): a question from {@link #QUERIES} with a situation
     * and an environment, each of the run's first 4,800 queries distinct, so none is answered from the
     * engine's query-vector cache.
     */
    public static String query(int ignored) {
        int i = ASKED.getAndIncrement();
        int n = QUERIES.size();
        return QUERIES.get(i % n) + " " + SITUATIONS.get((i / n) % SITUATIONS.size()) + " in "
                + ENVIRONMENTS.get((i / n / SITUATIONS.size()) % ENVIRONMENTS.size());
    }

    /** Questions an operator would ask, none copied from a body. */
    static final List<String> QUERIES = List.of("postgres keeps restarting after the deploy",
            "redis is out of memory and evicting", "kafka consumers are lagging behind", "ingress returns bad gateway",
            "keycloak login is slow at peak", "vault sealed after node maintenance", "payments api times out",
            "checkout errors after release", "elasticsearch cluster lost a node", "too many open files on rabbitmq",
            "etcd leader election keeps happening", "dns resolution fails inside pods", "kubelet evicting pods, disk pressure",
            "prometheus scrape targets down", "grafana dashboards show stale numbers", "certificate expired on the cdn",
            "mysql replication is behind", "mongodb primary stepped down", "zookeeper session expired",
            "cassandra compaction falling behind", "ledger service double booking", "notifications sent twice",
            "image resizer crashes on a bad upload", "haproxy marks all backends down", "vpn gateway drops tunnels",
            "mail relay rejects messages", "scheduled jobs did not run last night", "batch importer stuck",
            "billing job overloaded the database", "memcached hit rate dropped", "clickhouse queries slow after upgrade",
            "feature flags not applied", "users logged out randomly, session store", "api gateway rate limits everyone",
            "auth service rejects valid tokens", "object storage uploads failing", "build runners out of disk",
            "loki ingestion is rejecting logs", "envoy upstream connect error", "search results are outdated");
}
