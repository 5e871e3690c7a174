package dev.backplane.bench;

import dev.backplane.bench.AuditShape.Tenant;
import dev.backplane.kernel.testing.TestIssuer;
import dev.backplane.kernel.testing.TestKernel;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;

/**
 * Verify over HTTP (the kernel's {@code GET /api/v1/audit/verify}) on a seeded tenant's whole chain, the same walk in
 * process as a floor (read back and re-linked, {@link AuditLoad#walk}), the stats answer, and archive export.
 */
final class AuditIntegrity {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private final TestKernel k;
    private final TestIssuer issuer;

    AuditIntegrity(TestKernel k, TestIssuer issuer) {
        this.k = k;
        this.issuer = issuer;
    }

    /** GET /api/v1/audit/verify over {@code query} (e.g. since/until; empty: the whole chain). */
    void verify(Tenant t, String label, String query) throws Exception {
        String admin = issuer.token("bench-admin", t.id(), "tenant_admin");
        long t0 = System.nanoTime();
        // plain HTTP: TestKernel.send gives up after 30 s, and a whole chain of 10 million rows takes minutes
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(k.url() + "/api/v1/audit/verify" + query))
                .header("Authorization", "Bearer " + admin).timeout(java.time.Duration.ofMinutes(30)).build(),
                HttpResponse.BodyHandlers.ofString());
        double s = (System.nanoTime() - t0) / 1e9;
        Smoke.require(r.statusCode() == 200, "verify, " + label + ": " + r.statusCode() + " " + abbreviate(r.body()));
        if (r.statusCode() != 200) {
            System.out.println("verify, " + label + ": " + r.statusCode() + " " + abbreviate(r.body()));
            return;
        }
        var json = new com.fasterxml.jackson.databind.ObjectMapper().readTree(r.body());
        long rows = json.path("rows_checked").asLong();
        Smoke.require(rows > 0 && json.path("ok").asBoolean(), "verify, " + label + ": " + abbreviate(r.body()));
        System.out.printf("verify over HTTP, %s: %.1f s, %,d rows checked: %,.0f rows/s end to end; the kernel's own "
                + "figure: %s rows/s; ok: %s, problems: %s%n", label, s, rows, rows / s,
                json.path("rows_per_second").asText("?"), json.path("ok").asText(), abbreviate(json.path("problems").toString()));
    }

    void walk(Tenant t, long limit, String label) throws Exception {
        long[] read = AuditLoad.walk(k.kernel().database().dataSource(), t.id(), limit, false);
        long[] w = AuditLoad.walk(k.kernel().database().dataSource(), t.id(), limit, true);
        System.out.printf("chain walk in process, %s: %,d rows; read back only (JDBC, AuditRecord.read) %,.0f rows/s; "
                + "read and re-linked (AuditChain.link) %,.0f rows/s; %s%n", label, w[0], read[0] / (read[1] / 1e9),
                w[0] / (w[1] / 1e9), w[2] == 0 ? "every link holds" : "BROKEN at seq " + w[2]);
        Smoke.require(w[0] > 0 && w[2] == 0, "chain walk, " + label + ": " + w[0] + " rows, broken at seq " + w[2]);
    }

    void stats(Tenant t) {
        TestKernel.Response r = k.send("GET", "/api/v1/audit/stats", issuer.token("bench-admin", t.id(), "tenant_admin"),
                null, Map.of());
        System.out.println("stats: " + r.status() + " " + abbreviate(r.body()));
        Smoke.require(r.status() == 200, "stats answered " + r.status());
    }

    /** Archives the fullest seeded month (POST /api/v1/audit/archives, which also verifies what it wrote). */
    void export(Tenant t) throws Exception {
        String partition = k.jdbc().queryOne("SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid "
                + "WHERE i.inhparent = 'audit_rows'::regclass ORDER BY c.reltuples DESC LIMIT 1", rs -> rs.getString(1))
                .orElseThrow();
        long rows = k.jdbc().queryOne("SELECT count(*) FROM " + partition, rs -> rs.getLong(1)).orElse(0L);
        String admin = issuer.platformAdminToken("bench-platform", t.id());
        long t0 = System.nanoTime();
        // plain HTTP, not TestKernel.send: that checks each answer against docs/openapi, which does not list this route yet
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(k.url() + "/api/v1/audit/archives"))
                .header("Authorization", "Bearer " + admin).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"partition\": \"" + partition + "\"}")).build(),
                HttpResponse.BodyHandlers.ofString());
        double s = (System.nanoTime() - t0) / 1e9;
        Smoke.require(r.statusCode() == 200, "archive export of " + partition + ": " + r.statusCode() + " "
                + abbreviate(r.body()));
        if (r.statusCode() != 200) {
            System.out.println("archive export of " + partition + ": " + r.statusCode() + " " + abbreviate(r.body()));
            return;
        }
        long bytes = new com.fasterxml.jackson.databind.ObjectMapper().readTree(r.body()).path("bytes").asLong();
        System.out.printf("archive export of %s (%,d rows, written, then verified from the file): %.1f s, %,.0f rows/s; "
                        + "%,d MB compressed (%.0f bytes a row)%n", partition, rows, s, rows / s, bytes >> 20,
                rows == 0 ? 0.0 : bytes / (double) rows);
    }

    private static String abbreviate(String s) {
        return s.length() <= 600 ? s : s.substring(0, 600) + "...";
    }
}
