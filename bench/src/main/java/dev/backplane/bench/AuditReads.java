package dev.backplane.bench;

import static dev.backplane.bench.OpenLoop.pct;

import dev.backplane.bench.AuditShape.Tenant;
import dev.backplane.kernel.audit.AuditQueries;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.testing.TestIssuer;
import dev.backplane.kernel.testing.TestKernel;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The audit reads over HTTP on one seeded tenant: query by time window (7 days), and with a target, a work_ref or a
 * principal (partial match, as the CLI sends it) in the 7 days around a row that has it; who-touched a target;
 * replay a session. Arguments are drawn from a sample of the tenant's rows, every request a different one where
 * the tenant has enough; open loop at a fixed rate, latency from each request's scheduled start.
 */
final class AuditReads {

    private static final int N = Integer.getInteger("svc.bench.audit.requests", 200);
    private static final int RATE = Integer.getInteger("svc.bench.audit.rate", 20);
    private static final Duration WINDOW = Duration.ofDays(7);

    private record Sample(String target, String principal, String workRef, String session, Instant at) {
    }

    private final TestKernel k;
    private final TestIssuer issuer;
    private final AuditBench.Seeded seeded;
    private final HttpClient http = HttpClient.newBuilder().executor(Executors.newVirtualThreadPerTaskExecutor()).build();

    AuditReads(TestKernel k, TestIssuer issuer, AuditBench.Seeded seeded) {
        this.k = k;
        this.issuer = issuer;
        this.seeded = seeded;
    }

    void all(Tenant t, String label) throws Exception {
        long tenantRows = seeded.tenantRows()[t.index()];
        System.out.printf("audit reads, %s tenant (%,d rows), %d requests each at %d/s:%n", label, tenantRows, N, RATE);
        List<Sample> any = sample(t, tenantRows, "true", true);
        // a small tenant of a small seed (a smoke run's 20,000 rows: 24) may have no work_ref or session at all
        boolean big = t.index() == 0;
        List<Sample> withWorkRef = sample(t, tenantRows, "work_ref IS NOT NULL", big);
        List<Sample> withSession = sample(t, tenantRows, "session_id IS NOT NULL", big);
        java.util.Random r = new java.util.Random(7);
        Sample a = any.getFirst();
        Instant from0 = a.at().minus(WINDOW.dividedBy(2));
        String query = "SELECT * FROM audit_rows WHERE tenant_id = ?";
        String window = " AND occurred_at >= ? AND occurred_at < ?";
        String order = " ORDER BY occurred_at DESC, id DESC LIMIT 101";
        Object[] w = {t.id(), ts(from0), ts(from0.plus(WINDOW))};
        measure(t, "query, 7-day window", i -> {
            Instant from = seeded.from().plusSeconds((long) (r.nextDouble() * (Duration.between(seeded.from(),
                    seeded.to()).minus(WINDOW).toSeconds())));
            return "/api/v1/audit?since=" + from + "&until=" + from.plus(WINDOW);
        }, query + window + order, w);
        measure(t, "query, 7-day window + target", i -> window(any.get(i % any.size())) + "&target="
                + enc(any.get(i % any.size()).target()), query + window + " AND target = ?" + order, w, a.target());
        if (withWorkRef.isEmpty()) {
            System.out.println("  query, 7-day window + work_ref: not measured (no row of this tenant has a work_ref)");
        } else {
            Sample wr = withWorkRef.getFirst();
            Instant from1 = wr.at().minus(WINDOW.dividedBy(2));
            measure(t, "query, 7-day window + work_ref", i -> window(withWorkRef.get(i % withWorkRef.size())) + "&work_ref="
                    + enc(withWorkRef.get(i % withWorkRef.size()).workRef()), query + window + " AND work_ref = ?" + order,
                    new Object[] {t.id(), ts(from1), ts(from1.plus(WINDOW))}, wr.workRef());
        }
        measure(t, "who-touched <target>", i -> "/api/v1/audit/who-touched/" + enc(any.get(i % any.size()).target()),
                WHO_TOUCHED, new Object[] {t.id()}, a.target());
        if (withSession.isEmpty()) {
            System.out.println("  replay <session>: not measured (no row of this tenant has a session)");
        } else {
            measure(t, "replay <session>", i -> "/api/v1/audit/sessions/" + withSession.get(i % withSession.size()).session(),
                    "SELECT * FROM audit_rows WHERE tenant_id = ? AND session_id = ? ORDER BY occurred_at, id",
                    new Object[] {t.id()}, UUID.fromString(withSession.getFirst().session()));
        }
        // last: on the big tenant it can exhaust the connection pool, which would slow whatever ran after it
        measure(t, "query, 7-day window + principal (partial)", i -> window(any.get(i % any.size())) + "&principal="
                + enc(partial(any.get(i % any.size()).principal())), query + window
                + " AND principal ILIKE ? ESCAPE '\\'" + order, w, "%" + partial(a.principal()) + "%");
    }

    /** AuditQueryStore.whoTouched's statement. */
    private static final String WHO_TOUCHED = """
            SELECT r.principal, max(n.username) AS username, r.principal_kind, count(*) AS calls,
                   count(*) FILTER (WHERE r.op_class = 'write') AS writes, max(r.occurred_at) AS last_at
              FROM audit_rows r LEFT JOIN tenancy_principal_names n ON n.sub = r.principal
             WHERE r.tenant_id = ? AND r.target = ?
             GROUP BY r.principal, r.principal_kind ORDER BY last_at DESC""";

    private static java.sql.Timestamp ts(Instant at) {
        return java.sql.Timestamp.from(at);
    }

    /** The 7 days around a sampled row. */
    private static String window(Sample s) {
        Instant from = s.at().minus(WINDOW.dividedBy(2));
        return "/api/v1/audit?since=" + from + "&until=" + from.plus(WINDOW);
    }

    /** What a person types for a principal: its name without the domain ("user-017.t00" of user-017.t00@...). */
    private static String partial(String principal) {
        int at = principal.indexOf('@');
        int colon = principal.indexOf(':');
        return principal.substring(colon + 1, at < 0 ? principal.length() : at);
    }

    /**
     * Up to N rows of the tenant matching {@code where} with a target, in random order: from a TABLESAMPLE SYSTEM of
     * about 20,000 of its rows, or (a small seed, where that finds none) from all of them; none at all fails unless
     * not {@code required}.
     */
    private List<Sample> sample(Tenant t, long tenantRows, String where, boolean required) {
        double percent = Math.min(100, 100.0 * 20_000 / Math.max(1, tenantRows));
        String select = "SELECT target, principal, work_ref, session_id, occurred_at FROM audit_rows %s WHERE tenant_id = ? "
                + "AND target IS NOT NULL AND " + where + " LIMIT " + (N * 20);
        Jdbc jdbc = new Jdbc(k.kernel().database().dataSource());
        Jdbc.RowMapper<Sample> row = rs -> new Sample(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
                rs.getTimestamp(5).toInstant());
        List<Sample> out = new ArrayList<>(jdbc.query(select.formatted("TABLESAMPLE SYSTEM (" + percent + ") REPEATABLE (1)"),
                row, t.id()));
        if (out.isEmpty()) {
            out.addAll(jdbc.query(select.formatted(""), row, t.id()));
        }
        java.util.Collections.shuffle(out, new java.util.Random(3));
        if (out.isEmpty() && required) {
            throw new IllegalStateException("the tenant has no rows with " + where + ": seed more rows");
        }
        return out.subList(0, Math.min(N, out.size()));
    }

    private void measure(Tenant t, String label, java.util.function.IntFunction<String> path, String sql, Object[] params,
                         Object... more) throws Exception {
        String token = issuer.token("bench-auditor", t.id(), "operator");
        List<HttpRequest> requests = new ArrayList<>();
        for (int i = 0; i < N; i++) {
            requests.add(HttpRequest.newBuilder(URI.create(k.url() + path.apply(i))).header("Authorization", "Bearer " + token)
                    .build());
        }
        AtomicLong bytes = new AtomicLong();
        int[] failures = {0};
        OpenLoop.Request send = i -> {
            HttpResponse<String> r = http.send(requests.get(i % requests.size()), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                throw new IllegalStateException(r.statusCode() + " " + r.body());
            }
            bytes.addAndGet(r.body().length());
            return true;
        };
        java.util.function.Consumer<Exception> failed = e -> {
            synchronized (failures) {
                if (failures[0]++ < 2) {
                    System.out.println("    failure: " + e.getMessage());
                }
            }
        };
        OpenLoop.run(RATE, Math.min(30, N), send, failed); // warm-up
        bytes.set(0);
        OpenLoop.Run run = OpenLoop.run(RATE, N, send, failed);
        long[] ok = run.ok();
        Smoke.require(ok.length > 0 && run.failed() == 0, label + ": " + run.failed() + " of " + N + " reads failed");
        System.out.printf("  %-45s p50 %6.1f ms  p95 %6.1f ms  p99 %6.1f ms  (%d ok, %d failed, %,d bytes per answer)%s%n",
                label, pct(ok, 50), pct(ok, 95), pct(ok, 99), ok.length, run.failed(),
                ok.length == 0 ? 0 : bytes.get() / ok.length, pct(ok, 95) <= 50 ? "" : "  > 50 ms at p95");
        // the same requests' reads in process, one after another: the database and JDBC without HTTP, auth or queueing
        AuditQueries queries = new AuditQueries(new Jdbc(k.kernel().database().dataSource()));
        long[] direct = new long[N];
        for (int i = 0; i < N; i++) {
            long t0 = System.nanoTime();
            AuditProbes.direct(queries, t.id(), requests.get(i).uri());
            direct[i] = System.nanoTime() - t0;
        }
        java.util.Arrays.sort(direct);
        System.out.printf("  %-45s p50 %6.1f ms  p95 %6.1f ms  p99 %6.1f ms  (in process, AuditQueries, one at a time)%n",
                "", pct(direct, 50), pct(direct, 95), pct(direct, 99));
        if (pct(ok, 95) > 50 || Boolean.getBoolean("svc.bench.audit.explain")) {
            Object[] all = java.util.Arrays.copyOf(params, params.length + more.length);
            System.arraycopy(more, 0, all, params.length, more.length);
            AuditProbes.explain(new Jdbc(k.kernel().database().dataSource()), sql, all);
        }
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
