package dev.backplane.bench;

import dev.backplane.bench.AuditShape.Tenant;
import dev.backplane.kernel.testing.TestIssuer;
import dev.backplane.kernel.testing.TestKernel;
import java.util.Map;

/**
 * Verify over HTTP (the kernel's {@code GET /api/v1/audit/verify}) on a seeded tenant's whole chain, the same walk in
 * process as a floor (read back and re-linked, {@link AuditLoad#walk}), the stats answer, and archive export.
 */
final class AuditIntegrity {

    private final TestKernel k;
    private final TestIssuer issuer;

    AuditIntegrity(TestKernel k, TestIssuer issuer) {
        this.k = k;
        this.issuer = issuer;
    }

    void verify(Tenant t, String label) {
        String admin = issuer.token("bench-admin", t.id(), "tenant_admin");
        long t0 = System.nanoTime();
        TestKernel.Response r = k.send("GET", "/api/v1/audit/verify", admin, null, Map.of());
        double s = (System.nanoTime() - t0) / 1e9;
        if (r.status() == 404 && !r.body().contains("rows_checked")) {
            System.out.println("verify, " + label + " tenant: no verify route in this kernel (" + r.status() + ")");
            return;
        }
        var json = r.json();
        long rows = json == null ? 0 : json.path("rows_checked").asLong();
        System.out.printf("verify over HTTP, %s tenant: %d in %.1f s, %,d rows checked: %,.0f rows/s end to end; "
                        + "the kernel's own figure: %s rows/s; problems: %s%n", label, r.status(), s, rows, rows / s,
                json == null ? "?" : json.path("rows_per_second").asText("?"),
                json == null ? r.body() : abbreviate(json.path("problems").toString()));
    }

    void walk(Tenant t, long limit, String label) throws Exception {
        long[] w = AuditLoad.walk(k.kernel().database().dataSource(), t.id(), limit);
        System.out.printf("chain walk in process (JDBC read back, AuditRecord.read, AuditChain.link), %s: %,d rows in "
                + "%.1f s, %,.0f rows/s; %s%n", label, w[0], w[1] / 1e9, w[0] / (w[1] / 1e9),
                w[2] == 0 ? "every link holds" : "BROKEN at seq " + w[2]);
    }

    void stats(Tenant t) {
        TestKernel.Response r = k.send("GET", "/api/v1/audit/stats", issuer.token("bench-admin", t.id(), "tenant_admin"),
                null, Map.of());
        System.out.println("stats: " + r.status() + " " + abbreviate(r.body()));
    }

    void export(Tenant t) {
        System.out.println("archive export: no export route in this kernel yet; not measured");
    }

    private static String abbreviate(String s) {
        return s.length() <= 600 ? s : s.substring(0, 600) + "...";
    }
}
