package dev.backplane.bench;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import java.util.UUID;

/**
 * The shape of the generated audit log: 50 tenants, the first with half of the rows and the rest on a 1/i
 * tail; per tenant a few hundred targets and a few hundred principals (humans, agents, user-agents, services);
 * the operations a backplane dispatches. Everything derives from fixed seeds, so a re-run names the same tenants.
 */
final class AuditShape {

    static final int TENANTS = 50;
    /** The seeded tenant measured as "small": the last, the smallest share of the tail. */
    static final int SMALL = TENANTS - 1;

    /** An operation: its id, connector (null for the backplane's own) and audit class. */
    record Op(String id, String connector, String opClass, int weight, boolean targeted) {
    }

    static final Op[] OPS = {
        new Op("k8s.pod.list", "k8s-1.x", "read", 30, true),
        new Op("k8s.pod.get", "k8s-1.x", "read", 14, true),
        new Op("k8s.pod.logs", "k8s-1.x", "read", 12, true),
        new Op("k8s.event.list", "k8s-1.x", "read", 8, true),
        new Op("k8s.deployment.get", "k8s-1.x", "read", 8, true),
        new Op("k8s.deployment.scale", "k8s-1.x", "write", 2, true),
        new Op("k8s.deployment.restart", "k8s-1.x", "write", 2, true),
        new Op("aws.ec2.describe_instances", "aws-1.x", "read", 6, true),
        new Op("aws.cloudwatch.get_metric_data", "aws-1.x", "read", 5, true),
        new Op("github.pull.list", "github-1.x", "read", 4, true),
        new Op("github.pull.merge", "github-1.x", "write", 1, true),
        new Op("pagerduty.incident.list", "pagerduty-1.x", "read", 3, true),
        new Op("pagerduty.incident.acknowledge", "pagerduty-1.x", "write", 1, true),
        new Op("vault.kv.read", "vault-1.x", "credential_read", 1, true),
        new Op("svc.audit.query", null, "audit_query", 2, false),
        new Op("svc.kb.search", null, "other", 1, false),
    };
    private static final int OP_WEIGHTS = java.util.Arrays.stream(OPS).mapToInt(Op::weight).sum();
    private static final String[] ENVS = {"prod", "staging", "dev", "qa"};
    private static final String[] KINDS = {"eks", "gke", "aks", "aws", "github", "pagerduty", "vault", "grafana"};
    private static final String[] REGIONS = {"eu1", "eu2", "us1", "us2", "ap1"};

    /** One seeded tenant. */
    record Tenant(int index, UUID id, double share, String[] targets, UUID[] targetIds, String[] principals,
                  String[] kinds) {
    }

    static final Tenant[] ALL = tenants();

    private AuditShape() {
    }

    static UUID tenantId(int i) {
        return UUID.nameUUIDFromBytes(("svc-audit-bench-tenant-" + i).getBytes(StandardCharsets.UTF_8));
    }

    private static Tenant[] tenants() {
        double harmonic = 0;
        for (int i = 1; i < TENANTS; i++) {
            harmonic += 1.0 / i;
        }
        Tenant[] out = new Tenant[TENANTS];
        for (int t = 0; t < TENANTS; t++) {
            SplittableRandom r = new SplittableRandom(1000 + t);
            String[] targets = new String[200 + r.nextInt(200)];
            UUID[] targetIds = new UUID[targets.length];
            for (int i = 0; i < targets.length; i++) {
                targets[i] = ENVS[r.nextInt(ENVS.length)] + "-" + KINDS[r.nextInt(KINDS.length)] + "-"
                        + REGIONS[r.nextInt(REGIONS.length)] + "-" + String.format("%03d", i);
                targetIds[i] = uuid(r);
            }
            String[] principals = new String[150 + r.nextInt(200)];
            String[] kinds = new String[principals.length];
            for (int i = 0; i < principals.length; i++) {
                double k = r.nextDouble();
                kinds[i] = k < 0.45 ? "human" : k < 0.85 ? "agent" : k < 0.95 ? "user-agent" : "service";
                principals[i] = switch (kinds[i]) {
                    case "human" -> String.format("user-%03d.t%02d@example.com", i, t);
                    case "agent" -> String.format("agent:triage-%03d.t%02d", i, t);
                    case "user-agent" -> String.format("user-%03d.t%02d@example.com/assistant", i, t);
                    default -> String.format("service:ci-%03d.t%02d", i, t);
                };
            }
            double share = t == 0 ? 0.5 : 0.5 / t / harmonic;
            out[t] = new Tenant(t, tenantId(t), share, targets, targetIds, principals, kinds);
        }
        return out;
    }

    /** A tenant drawn by share. */
    static Tenant pickTenant(SplittableRandom r) {
        double x = r.nextDouble();
        for (Tenant t : ALL) {
            x -= t.share();
            if (x < 0) {
                return t;
            }
        }
        return ALL[0];
    }

    static Op pickOp(SplittableRandom r) {
        int x = r.nextInt(OP_WEIGHTS);
        for (Op op : OPS) {
            x -= op.weight();
            if (x < 0) {
                return op;
            }
        }
        return OPS[0];
    }

    /** A random (version 4) uuid from {@code r}. */
    static UUID uuid(SplittableRandom r) {
        long msb = (r.nextLong() & 0xffffffffffff0fffL) | 0x0000000000004000L;
        long lsb = (r.nextLong() & 0x3fffffffffffffffL) | 0x8000000000000000L;
        return new UUID(msb, lsb);
    }

    /** PostgreSQL's order of uuids: bytewise, unsigned. */
    static int compare(UUID a, UUID b) {
        int c = Long.compareUnsigned(a.getMostSignificantBits(), b.getMostSignificantBits());
        return c != 0 ? c : Long.compareUnsigned(a.getLeastSignificantBits(), b.getLeastSignificantBits());
    }
}
