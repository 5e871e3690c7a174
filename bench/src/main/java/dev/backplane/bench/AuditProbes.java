package dev.backplane.bench;

import dev.backplane.kernel.audit.AuditQueries;
import dev.backplane.kernel.persistence.Jdbc;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;

/** What {@link AuditReads} looks at beside the HTTP latency: a read's plans, and the read done in process. */
final class AuditProbes {

    private AuditProbes() {
    }

    /**
     * EXPLAIN (ANALYZE, BUFFERS) of a read's statement (as AuditQueryStore builds it) with one sampled argument: the plan
     * for these values (a custom plan), then the first lines of the generic plan PostgreSQL may switch a prepared
     * statement to after five executions (pgjdbc prepares a statement on its fifth use).
     */
    static void explain(Jdbc jdbc, String sql, Object[] params) {
        System.out.println("    EXPLAIN (ANALYZE, BUFFERS) " + sql.replaceAll("\\s+", " "));
        StringBuilder prepared = new StringBuilder();
        StringBuilder args = new StringBuilder();
        int n = 0;
        for (char ch : sql.toCharArray()) {
            prepared.append(ch == '?' ? "$" + ++n : String.valueOf(ch));
        }
        for (Object p : params) {
            args.append(args.isEmpty() ? "" : ", ").append('\'').append(String.valueOf(p instanceof java.sql.Timestamp t
                    ? t.toInstant() : p).replace("'", "''")).append('\'');
        }
        jdbc.inTransaction(c -> {
            Jdbc.update(c, "PREPARE bench_read AS " + prepared);
            for (String mode : new String[] {"force_custom_plan", "force_generic_plan"}) {
                Jdbc.update(c, "SET LOCAL plan_cache_mode = " + mode);
                List<String> plan = Jdbc.query(c, "EXPLAIN (ANALYZE, BUFFERS) EXECUTE bench_read(" + args + ")",
                        rs -> rs.getString(1));
                System.out.println("    " + (mode.contains("custom") ? "custom plan:" : "generic plan (first lines):"));
                for (int i = 0; i < plan.size(); i++) {
                    if (mode.contains("custom") || i < 6 || plan.get(i).contains("Execution Time")) {
                        System.out.println("      " + plan.get(i));
                    }
                }
            }
            Jdbc.update(c, "DEALLOCATE bench_read");
            return null;
        });
    }

    /** What the route behind {@code uri} asks of AuditQueries. */
    static Object direct(AuditQueries queries, UUID tenant, URI uri) {
        String path = uri.getPath();
        if (path.startsWith("/api/v1/audit/who-touched/")) {
            return queries.whoTouched(tenant, java.net.URLDecoder.decode(path.substring(26), StandardCharsets.UTF_8));
        }
        if (path.startsWith("/api/v1/audit/sessions/")) {
            return queries.replay(tenant, UUID.fromString(path.substring(23)), 20);
        }
        java.util.Map<String, String> q = new java.util.HashMap<>();
        for (String kv : uri.getRawQuery().split("&")) {
            String[] p = kv.split("=", 2);
            q.put(p[0], java.net.URLDecoder.decode(p[1], StandardCharsets.UTF_8));
        }
        java.util.function.Function<String, java.util.Optional<String>> o = name -> java.util.Optional.ofNullable(q.get(name));
        return queries.query(tenant, new AuditQueries.Filter(java.util.Optional.empty(), java.util.Optional.empty(),
                java.util.Optional.empty(), java.util.Optional.empty(), o.apply("principal"), java.util.Optional.empty(),
                java.util.Optional.empty(), o.apply("since"), o.apply("until"), o.apply("target"), o.apply("work_ref"),
                java.util.Optional.empty()), java.util.Optional.empty(), 100);
    }
}
