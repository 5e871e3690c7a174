package dev.backplane.kernel.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.backplane.kernel.http.ApiRoutes;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.testing.ApiContract;
import dev.backplane.kernel.testing.TempDirs;
import dev.backplane.kernel.testing.TestIssuer;
import dev.backplane.kernel.testing.TestKernel;
import dev.backplane.kernel.testing.TestPlugins;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.stream.Collectors;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.AfterProperty;
import net.jqwik.api.lifecycle.BeforeContainer;
import net.jqwik.api.lifecycle.BeforeProperty;

/**
 * Property-based bad-input fuzz (jqwik) over every REST route the kernel declares and every MCP tool it
 * lists. The routes come from {@link ApiRoutes#routes()}; their query parameters and body fields from
 * the OpenAPI document the kernel serves ({@code /openapi.yaml}); the tools and their argument names
 * from {@code tools/list} — so a new route, field or tool is fuzzed without touching this test.
 *
 * <p>Inputs: NUL characters (raw and escaped) and lone surrogates in every string field and query
 * parameter, huge and out-of-range numbers, negative offsets and limits, 5,000-level nesting, null
 * list elements, null for every field, wrong types, out-of-range times and durations, 1 MB strings,
 * empty, non-JSON and over-the-cap bodies, duplicate keys, NUL in keys. Path parameters name the
 * tenant's real resources (fixtures made in {@code start}) most of the time so the fuzzed body gets past
 * the lookups, and are fuzzed themselves the rest of the time.
 *
 * <p>Properties: (1) no route answers a 5xx the OpenAPI document does not list for it (an upstream 502
 * of the docs backend is documented; a 500 never is), as the tenant_admin or an operator of the fixture
 * tenant, or the tenant_admin of a brand-new one; (2) a refused request (4xx) writes nothing: the rows
 * of every table with a {@code tenant_id} column (found through information_schema) for the caller's
 * tenant, and for no tenant, are unchanged in count and in content (an md5 of the rows) — except the
 * refusal's own audit row and the broadcast feed's background rows ({@link #snapshotQuery} says why);
 * (3) no MCP tool call answers a 5xx or a JSON-RPC internal error (-32603), and a refused one writes
 * nothing either. A request the kernel never answers (the connection closed or reset) is a defect in
 * every property, never a refusal ({@link #NO_ANSWER}).
 *
 * <p>A property does not stop at its first counterexample: every try runs, defects are collected
 * (deduplicated by route and cause, with the first input, the answer and — from the kernel's log — the
 * kernel frame that threw) and the property fails afterwards listing all of them. Shrinking is off:
 * every try is an HTTP round trip against a shared kernel.
 *
 * <p>When the class has run, it fails unless every route and every tool was reached, and the README's
 * figures hold: 6,500 requests, 2,900+ refusals checked for writes, none left without an answer.
 *
 * <p>Seeds are pinned, so CI checks the same 6,500 inputs every run and cannot fail by chance; to
 * explore new inputs, remove the {@code seed} attributes locally (jqwik then picks one per run and
 * prints it) and pin any seed that finds a defect once it is fixed.
 */
class BadInputFuzzIT {

    // Sized for a run of about three minutes on two shared cores, kernel start included.
    private static final int REST_5XX_TRIES = 3000;
    private static final int REST_WRITES_TRIES = 2000;
    private static final int MCP_TRIES = 1500;
    /** The README's figures for this suite ("6,500 requests per run", "2,900+ refusals checked"), held as floors. */
    private static final long README_REQUESTS = 6_500;
    private static final long README_REFUSALS = 2_900;

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Stands for the three bytes ED A0 80: U+D800 encoded as if it were a character (invalid UTF-8). */
    private static final char LONE_SURROGATE_BYTES = '\uE000';
    /** Stands for the byte FF, never valid in UTF-8. */
    private static final char INVALID_BYTE = '\uE001';
    private static final String MB_STRING = "a".repeat(1_000_000);
    private static final String DEEP_ARRAY = "[".repeat(5000) + "]".repeat(5000);
    private static final String DEEP_OBJECT = "{\"a\":".repeat(5000) + "null" + "}".repeat(5000);
    private static final Set<String> NO_BODY_METHODS = Set.of("GET", "DELETE");
    /** Kernel frames that only pass a failure through: the responsible frame is the first one after them. */
    private static final java.util.regex.Pattern INFRASTRUCTURE = java.util.regex.Pattern.compile(
            "dev\\.backplane\\.kernel\\.(persistence\\.(Jdbc|SharedCache)|http\\.(ApiRoutes|RequestIds|Json|ErrorMapping)"
            + "|retrieval\\.Embedder)([$.].*)?");

    private static TestIssuer issuer;
    private static TestKernel kernel;
    private static Jdbc jdbc;
    private static HttpServer upstream;
    private static HttpClient http;
    private static JsonNode openapi;
    private static List<RouteSpec> routes;
    private static List<ToolSpec> tools;
    private static List<String> tenantTables;
    private static String snapshotSql;
    private static final Fixtures fx = new Fixtures();
    private static final LogCapture logs = new LogCapture();
    private static final AtomicLong requestCount = new AtomicLong();
    private static final AtomicLong fiveXx = new AtomicLong();
    private static final AtomicLong internalRpcErrors = new AtomicLong();
    private static final AtomicLong documentedFiveXx = new AtomicLong();
    private static final AtomicLong transportErrors = new AtomicLong();
    private static final AtomicLong refusalsChecked = new AtomicLong();
    private static final Map<String, Defect> allDefects = new LinkedHashMap<>();
    private static final Map<String, Long> statusCounts = new java.util.TreeMap<>();
    private static final Set<String> routesHit = new TreeSet<>();
    private static final Set<String> toolsHit = new TreeSet<>();
    private static final List<Defect> propertyDefects = new ArrayList<>();
    private static long startedAt;

    // ------------------------------------------------------------------------------------------------
    // lifecycle

    @BeforeContainer
    static void start() throws Exception {
        startedAt = System.nanoTime();
        Path work = TempDirs.create("svc-bad-input-fuzz");
        Path plugins = Files.createDirectories(work.resolve("plugins"));
        TestPlugins.build(plugins, TestPlugins.connector("fz", "1.x").product("fz").ranges("*").operations(6)
                .httpProbe(true).typedAndComposite());
        Path kbRoot = Files.createDirectories(work.resolve("kb-root"));
        // svc kb ingest reads the acting tenant's folder of the root only: <root>/<tenant-id>/docs
        Path kbDocs = Files.createDirectories(kbRoot.resolve(fx.tenant.toString()).resolve("docs"));
        Files.writeString(kbDocs.resolve("runbook.md"), "---\ntitle: Runbook\n---\n# Restart\nRestart the fz items.\n");
        Files.writeString(kbDocs.resolve("notes.txt"), "Notes about fz appliances and their items.\n");
        upstream = startUpstream();
        issuer = new TestIssuer();
        Map<String, String> env = TestKernel.settings(issuer, plugins);
        env.put("SVC_KB_INGEST_ROOT", kbRoot.toString());
        env.put("SVC_DOCS_BACKEND_TIMEOUT_MS", "2000");
        env.put("SVC_PLUGIN_CALL_TIMEOUT_SECONDS", "10");
        kernel = TestKernel.start(work.resolve("data"), env);
        jdbc = new Jdbc(kernel.kernel().database().dataSource());
        http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5))
                .build();
        Logger.getLogger("").addHandler(logs);

        var doc = kernel.get("/openapi.yaml", null);
        assertThat(doc.status()).isEqualTo(200);
        openapi = new ObjectMapper(new YAMLFactory()).readTree(doc.body());
        routes = kernel.kernel().api().routes().stream().map(BadInputFuzzIT::routeSpec).toList();
        tenantTables = jdbc.query("""
                SELECT c.table_name FROM information_schema.columns c
                JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
                WHERE c.column_name = 'tenant_id' AND c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
                  AND to_regclass(c.table_name) NOT IN (SELECT inhrelid FROM pg_inherits)
                ORDER BY c.table_name""", rs -> rs.getString(1));
        assertThat(tenantTables).contains("audit_rows", "targets_targets").doesNotContain("audit_rows_default");
        snapshotSql = tenantTables.stream().map(BadInputFuzzIT::snapshotQuery).collect(Collectors.joining(" UNION ALL "));

        fx.setUp();
        tools = listTools();
        assertThat(tools).isNotEmpty();
        System.out.printf("BadInputFuzzIT: set up in %d s: %d routes, %d tools, %d tables with tenant_id%n",
                (System.nanoTime() - startedAt) / 1_000_000_000L, routes.size(), tools.size(), tenantTables.size());
    }

    @AfterContainer
    static void stop() {
        try {
            report();
            assertTheRunCoveredWhatTheReadmeSays();
        } finally {
            Logger.getLogger("").removeHandler(logs);
            if (kernel != null) {
                kernel.close();
            }
            if (issuer != null) {
                issuer.close();
            }
            if (upstream != null) {
                upstream.stop(0);
            }
        }
    }

    private static void report() {
        long seconds = (System.nanoTime() - startedAt) / 1_000_000_000L;
        System.out.println("BadInputFuzzIT: statuses " + statusCounts + "; " + refusalsChecked.get()
                + " refusals checked for writes; " + documentedFiveXx.get() + " of the 5xx documented for their "
                + "route; " + transportErrors.get() + " requests without an answer; routes never reached: "
                + routesNotReached() + "; tools never reached: " + toolsNotReached());
        synchronized (allDefects) {
            allDefects.values().forEach(d -> System.out.println("BadInputFuzzIT defect: " + d));
        }
        System.out.printf("BadInputFuzzIT: %d JSON-RPC internal errors, %d defects, %d s%n", internalRpcErrors.get(),
                allDefects.size(), seconds);
        System.out.printf("BadInputFuzzIT: %d routes, %d tools, %d requests, %d 5xx%n", routes == null ? 0 : routes.size(),
                tools == null ? 0 : tools.size(), requestCount.get(), fiveXx.get());
    }

    private static List<String> routesNotReached() {
        return routes == null ? List.of()
                : routes.stream().map(RouteSpec::key).filter(k -> !routesHit.contains(k)).toList();
    }

    private static List<String> toolsNotReached() {
        return tools == null ? List.of() : tools.stream().map(ToolSpec::name).filter(t -> !toolsHit.contains(t)).toList();
    }

    /**
     * What the README states of this suite, over the whole class (run it whole: a single property fails here): every
     * route and every tool fuzzed, 6,500 requests, 2,900+ refusals checked for writes, and every request answered.
     */
    private static void assertTheRunCoveredWhatTheReadmeSays() {
        if (routes == null || tools == null) {
            return; // the set-up failed, and said why
        }
        org.assertj.core.api.SoftAssertions soft = new org.assertj.core.api.SoftAssertions();
        soft.assertThat(routesNotReached()).as("routes the fuzz never reached").isEmpty();
        soft.assertThat(toolsNotReached()).as("MCP tools the fuzz never reached").isEmpty();
        soft.assertThat(requestCount.get()).as("requests sent (README: 6,500 per run)")
                .isGreaterThanOrEqualTo(README_REQUESTS);
        soft.assertThat(refusalsChecked.get()).as("refusals checked for writes (README: 2,900+)")
                .isGreaterThanOrEqualTo(README_REFUSALS);
        soft.assertThat(transportErrors.get()).as("requests the kernel closed the connection on without an answer "
                + "(each is listed above as a no-answer defect)").isZero();
        soft.assertAll();
    }

    @BeforeProperty
    void resetDefects() {
        propertyDefects.clear();
    }

    /** Runs after every try of the property: the defects it collected fail it, all listed. */
    @AfterProperty
    void failOnDefects() {
        if (!propertyDefects.isEmpty()) {
            throw new AssertionError(propertyDefects.size() + " defect(s):\n" + propertyDefects.stream()
                    .map(Defect::toString).collect(Collectors.joining("\n")));
        }
    }

    // ------------------------------------------------------------------------------------------------
    // properties

    @Property(seed = "-1139425278200233333", tries = REST_5XX_TRIES, shrinking = ShrinkingMode.OFF, edgeCases = EdgeCasesMode.MIXIN)
    void noRouteAnswersAnUndocumented5xx(@ForAll("restRequests") Req req) {
        Resp r = send(req);
        check5xx(req, r);
        afterAnswer(req, r, false);
    }

    @Property(seed = "389770671907708593", tries = REST_WRITES_TRIES, shrinking = ShrinkingMode.OFF, edgeCases = EdgeCasesMode.MIXIN)
    void aRefusedRequestWritesNothing(@ForAll("restRequests") Req req) {
        UUID tenant = req.who().tenant();
        Map<String, TableRows> before = snapshot(tenant);
        Resp r = send(req);
        check5xx(req, r);
        if (r.status() >= 400 && r.status() < 500) {
            refusalsChecked.incrementAndGet();
            String changed = changes(before, snapshot(tenant));
            if (!changed.isEmpty()) {
                defect("write-on-refusal", req.route().key() + " " + tables(changed), req.describe(), r,
                        "rows changed by a refused request: " + changed + ". " + r.excerpt());
            }
        } else if (r.status() >= 500 || r.unanswered()) {
            // already a defect; whether it left rows behind belongs in its report
            String changed = changes(before, snapshot(tenant));
            if (!changed.isEmpty()) {
                defect(r.unanswered() ? "write-on-no-answer" : "write-on-5xx", req.route().key() + " " + tables(changed),
                        req.describe(), r, "rows changed by a failed request: " + changed + ". " + r.excerpt());
            }
        }
        afterAnswer(req, r, true);
    }

    @Property(seed = "5291545158384076827", tries = MCP_TRIES, shrinking = ShrinkingMode.OFF, edgeCases = EdgeCasesMode.MIXIN)
    void noMcpToolCallFailsInternallyOrWritesWhenRefused(@ForAll("toolCalls") ToolCall call) {
        String token = call.who().kind() == Kind.OPERATOR
                ? issuer.mcpToken(fx.operatorSub, fx.tenant, "operator")
                : issuer.mcpToken(call.who().kind() == Kind.ADMIN ? fx.adminSub : "fz-fresh-admin", call.who().tenant(),
                "tenant_admin");
        String id = "fz-" + requestCount.incrementAndGet();
        String meta = call.stateless() ? ",\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                + "\"io.modelcontextprotocol/clientCapabilities\":{}}" : "";
        String message = "{\"jsonrpc\":\"2.0\",\"id\":\"" + id + "\",\"method\":\"tools/call\",\"params\":{\"name\":\""
                + call.tool() + "\",\"arguments\":" + fx.resolve(call.args().text()) + meta + "}}";
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(kernel.url() + "/mcp"))
                .timeout(Duration.ofSeconds(60))
                .header("Authorization", "Bearer " + token).header("X-Request-Id", id)
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofByteArray(encode(message)));
        if (call.stateless()) {
            b.header("MCP-Protocol-Version", "2026-07-28").header("Mcp-Method", "tools/call").header("Mcp-Name", call.tool());
        }
        Map<String, TableRows> before = snapshot(call.who().tenant());
        Resp r = exchange(b.build(), id);
        toolsHit.add(call.tool());
        count(r.unanswered() ? "mcp no answer" : "mcp " + r.status());
        String where = "MCP tool " + call.tool();
        java.util.function.Supplier<String> input = () -> call.who() + (call.stateless() ? ", stateless 2026-07-28" : "")
                + "; arguments [" + call.args().label() + "] " + excerpt(call.args().text(), 400);
        JsonNode answer = null;
        try {
            answer = JSON.readTree(r.body());
        } catch (IOException | RuntimeException e) {
            // not JSON: judged by its status alone
        }
        int rpcCode = answer == null ? 0 : answer.path("error").path("code").asInt(0);
        if (r.unanswered()) {
            defect("no-answer", where + " " + r.location(), input.get(), r,
                    "the connection was closed with no answer: " + r.excerpt());
        } else if (r.status() >= 500) {
            fiveXx.incrementAndGet();
            defect("5xx", where + " " + r.status() + " " + r.location(), input.get(), r, r.excerpt());
        } else if (rpcCode == -32603) {
            internalRpcErrors.incrementAndGet();
            defect("jsonrpc-internal-error", where + " -32603 " + r.location(), input.get(), r, r.excerpt());
        }
        boolean refused = (r.status() >= 400 && r.status() < 500) || (rpcCode != 0 && rpcCode != -32603)
                || (answer != null && answer.path("result").path("isError").asBoolean());
        if (refused) {
            refusalsChecked.incrementAndGet();
            String changed = changes(before, snapshot(call.who().tenant()));
            if (!changed.isEmpty()) {
                defect("write-on-refusal", where + " " + tables(changed), input.get(), r,
                        "rows changed by a refused tool call: " + changed + ". " + r.excerpt());
            }
        }
    }

    // ------------------------------------------------------------------------------------------------
    // checks

    private static void check5xx(Req req, Resp r) {
        if (r.unanswered()) {
            defect("no-answer", req.route().key() + " " + r.location(), req.describe(), r,
                    "the connection was closed with no answer: " + r.excerpt());
            return;
        }
        if (r.status() < 500) {
            return;
        }
        fiveXx.incrementAndGet();
        String code = r.errorCode();
        if (req.route().documented().contains(r.status()) && !code.equals("internal_error")) {
            documentedFiveXx.incrementAndGet();
            return;
        }
        defect("5xx", req.route().key() + " " + r.status() + " " + code + " " + r.location(), req.describe(), r,
                r.excerpt());
    }

    /** After a request that may have changed things: wait for background work, put fixtures back. */
    private static void afterAnswer(Req req, Resp r, boolean settle) {
        boolean changed = r.status() < 400 && !req.route().method().equals("GET");
        if (changed && req.who().kind() != Kind.FRESH_ADMIN) {
            fx.repair(req.route().path());
        }
        if (settle && (changed || r.status() >= 500)) {
            settle(req.who().tenant());
        }
    }

    /** Waits until the tenant's row counts stop moving (async jobs, runs), at most five seconds. */
    private static void settle(UUID tenant) {
        Map<String, TableRows> last = snapshot(tenant);
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (System.nanoTime() < deadline) {
            sleep(60);
            Map<String, TableRows> now = snapshot(tenant);
            if (now.equals(last)) {
                return;
            }
            last = now;
        }
    }

    /**
     * The rows of {@code table} a request of the tenant bound to the query's {@code ?} may touch, and the rows of no
     * tenant: count and an md5 of their content (as {@code TenantMatrixIT.snapshot()} takes them), so an UPDATE that
     * changes no count — a refused PATCH that half-applies — is seen too. Left out, each for the reason given:
     * <ul>
     *   <li>{@code audit_rows} with result_status denied or error: a refusal is audited (SPEC, audit log: status
     *       denied, or error with the refusal's code), so its own row is the one write a refused request makes by
     *       design; every other audit row (ok, started, awaiting_approval) is compared;</li>
     *   <li>{@code broadcast_events} other than announcements: the broadcast feed records activity, refusals
     *       included, after the fact from its background writer ({@code BroadcastFeed}: a bounded queue drained by
     *       the {@code broadcast-writer} thread), so such a row may land while the next request runs; announcements
     *       are written synchronously by their route and are compared;</li>
     *   <li>{@code broadcast_windows}: the same writer's aggregation rows (counts per window), written and
     *       rolled up only in the background.</li>
     *   <li>the audit chain's links ({@code audit_links}), {@code audit_chain_heads}, {@code audit_seals} and the
     *       rollups {@code audit_principals} and {@code audit_target_principals}: the chainer links committed rows,
     *       rolls them up and seals heads in the background (docs/operations/audit-log.md). The
     *       partitions of {@code audit_rows} are read through it, not twice.</li>
     * </ul>
     */
    private static String snapshotQuery(String table) {
        String tenant = switch (table) {
            case "audit_rows" -> "tenant_id = ?::uuid AND result_status NOT IN ('denied', 'error')";
            case "broadcast_events" -> "tenant_id = ?::uuid AND kind = 'announcement'";
            case "broadcast_windows", "audit_links", "audit_chain_heads", "audit_seals", "audit_principals",
                 "audit_target_principals" ->
                    "tenant_id = ?::uuid AND false";
            default -> "tenant_id = ?::uuid";
        };
        String none = Set.of("broadcast_windows", "audit_links", "audit_chain_heads", "audit_seals", "audit_principals",
                "audit_target_principals").contains(table) ? "false"
                : "tenant_id IS NULL";
        String row = table.equals("audit_rows") ? "(r.id, r.tenant_id, r.occurred_at, r.principal, r.op_class, r.op_id, "
                + "r.target, r.result_status, r.error_code, r.session_id, r.work_ref, r.params_hash, r.extras)::text" : "r::text";
        return "SELECT '" + table + "', " + countAndMd5(tenant, row) + ", " + countAndMd5(none, row) + " FROM \"" + table
                + "\" r";
    }

    private static String countAndMd5(String where, String row) {
        return "count(*) FILTER (WHERE " + where + "), coalesce(md5(string_agg(" + row + ", '|' ORDER BY " + row
                + ") FILTER (WHERE " + where + ")), '-')";
    }

    /** Count and content digest of some rows of a table. */
    record Rows(long count, String md5) {
    }

    /** A table's rows of the tenant, and of no tenant. */
    record TableRows(Rows tenant, Rows none) {
    }

    private static Map<String, TableRows> snapshot(UUID tenant) {
        Object[] params = new Object[(int) snapshotSql.chars().filter(c -> c == '?').count()];
        Arrays.fill(params, tenant.toString());
        Map<String, TableRows> out = new LinkedHashMap<>();
        jdbc.query(snapshotSql, rs -> out.put(rs.getString(1), new TableRows(new Rows(rs.getLong(2), rs.getString(3)),
                new Rows(rs.getLong(4), rs.getString(5)))), params);
        return out;
    }

    /**
     * "table: tenant +1, no tenant =" for every table whose rows differ ("tenant = (content changed)" when only the
     * content did); empty when none do.
     */
    private static String changes(Map<String, TableRows> before, Map<String, TableRows> after) {
        List<String> out = new ArrayList<>();
        before.forEach((table, was) -> {
            TableRows now = after.get(table);
            if (!was.equals(now)) {
                out.add(table + ": tenant " + delta(was.tenant(), now.tenant()) + ", no tenant "
                        + delta(was.none(), now.none()));
            }
        });
        return String.join(", ", out);
    }

    private static String tables(String changes) {
        List<String> out = new ArrayList<>();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\w+): tenant").matcher(changes);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out.toString();
    }

    private static String delta(Rows before, Rows after) {
        long d = after.count() - before.count();
        String counted = d == 0 ? "=" : (d > 0 ? "+" : "") + d;
        return d == 0 && !before.md5().equals(after.md5()) ? counted + " (content changed)" : counted;
    }

    private static void defect(String kind, String key, String input, Resp r, String detail) {
        synchronized (allDefects) {
            Defect d = allDefects.computeIfAbsent(kind + " " + key, k -> new Defect(kind, key, input,
                    "HTTP " + r.status() + " (request id " + r.requestId() + "): " + detail, r.trace()));
            d.count().incrementAndGet();
            if (!propertyDefects.contains(d)) {
                propertyDefects.add(d);
            }
        }
    }

    /** One distinct defect: the first input and answer that showed it, and how often it was seen. */
    private record Defect(String kind, String key, String input, String answer, String trace, AtomicInteger count) {

        Defect(String kind, String key, String input, String answer, String trace) {
            this(kind, key, input, answer, trace, new AtomicInteger());
        }

        @Override
        public String toString() {
            return "[" + kind + "] " + key + " (x" + count + ")\n    input: " + input + "\n    answer: " + answer
                    + (trace.isEmpty() ? "" : "\n    kernel log: " + trace);
        }
    }

    // ------------------------------------------------------------------------------------------------
    // the routes and the OpenAPI document

    record Param(String name, String in, JsonNode schema) {
    }

    record RouteSpec(String method, String path, boolean isPublic, List<Param> params, JsonNode body,
                     Set<Integer> documented) {
        String key() {
            return method + " " + path;
        }

        List<Param> in(String where) {
            return params.stream().filter(p -> p.in().equals(where)).toList();
        }
    }

    private static RouteSpec routeSpec(ApiRoutes.Route route) {
        JsonNode op = openapi.path("paths").path(route.path()).path(route.method().toLowerCase(Locale.ROOT));
        List<Param> params = new ArrayList<>();
        for (JsonNode p : op.path("parameters")) {
            JsonNode param = deref(p);
            params.add(new Param(param.path("name").asText(), param.path("in").asText(), deref(param.path("schema"))));
        }
        // path parameters the document forgot are still fuzzed
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\{([^}]+)}").matcher(route.path());
        while (m.find()) {
            String name = m.group(1);
            if (params.stream().noneMatch(p -> p.in().equals("path") && p.name().equals(name))) {
                params.add(new Param(name, "path", JSON.createObjectNode().put("type", "string")));
            }
        }
        JsonNode body = op.path("requestBody").isMissingNode() ? null
                : deref(deref(op.path("requestBody")).path("content").path("application/json").path("schema"));
        Set<Integer> documented = new LinkedHashSet<>();
        op.path("responses").fieldNames().forEachRemaining(s -> {
            if (s.matches("\\d{3}")) {
                documented.add(Integer.parseInt(s));
            }
        });
        return new RouteSpec(route.method(), route.path(), route.role().isEmpty(), List.copyOf(params), body,
                documented);
    }

    private static JsonNode deref(JsonNode node) {
        while (node != null && node.has("$ref")) {
            String ref = node.path("$ref").asText();
            node = openapi.at(ref.substring(1));
        }
        return node;
    }

    record Field(String name, JsonNode schema, boolean required) {
    }

    /** The fields of an object schema (resolved), or the required names of a schema that lists no properties. */
    private static List<Field> fields(JsonNode schema) {
        schema = deref(schema);
        List<Field> out = new ArrayList<>();
        if (schema == null) {
            return out;
        }
        Set<String> required = new LinkedHashSet<>();
        schema.path("required").forEach(n -> required.add(n.asText()));
        schema.path("properties").properties().forEach(e -> out.add(new Field(e.getKey(), deref(e.getValue()),
                required.contains(e.getKey()))));
        for (String r : required) {
            if (out.stream().noneMatch(f -> f.name().equals(r))) {
                out.add(new Field(r, JSON.createObjectNode(), true));
            }
        }
        return out;
    }

    private static String type(JsonNode schema) {
        schema = deref(schema);
        if (schema == null) {
            return "any";
        }
        if (schema.has("type")) {
            return schema.path("type").asText();
        }
        if (schema.has("properties")) {
            return "object";
        }
        if (schema.has("oneOf")) {
            return "oneOf";
        }
        return "any";
    }

    // ------------------------------------------------------------------------------------------------
    // generated requests

    enum Kind { ADMIN, OPERATOR, FRESH_ADMIN }

    record Who(Kind kind, UUID tenant) {
        @Override
        public String toString() {
            return kind == Kind.FRESH_ADMIN ? "tenant_admin of a fresh tenant" : kind == Kind.ADMIN
                    ? "tenant_admin" : "operator";
        }
    }

    /** A JSON value as raw text (it may be invalid JSON on purpose) and a short label for reports. */
    record V(String raw, String label) {
        static V of(String raw) {
            return new V(raw, excerpt(raw, 60));
        }
    }

    record Body(String text, String label, String contentType) {
    }

    private static final Body NO_BODY = new Body("", "none", "");

    record Req(RouteSpec route, Who who, Map<String, V> path, List<String[]> query, Map<String, String> headers,
               Body body) {
        String describe() {
            StringBuilder b = new StringBuilder(who.toString());
            if (!path.isEmpty()) {
                b.append("; path ").append(path.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue().label())
                        .collect(Collectors.joining(", ")));
            }
            if (!query.isEmpty()) {
                b.append("; query ").append(query.stream().map(q -> q[0] + "=" + excerpt(q[1], 60))
                        .collect(Collectors.joining("&")));
            }
            if (!headers.isEmpty()) {
                b.append("; headers ").append(headers);
            }
            if (body != null) {
                b.append("; body [").append(body.label()).append("] ").append(excerpt(body.text(), 400));
                if (!body.contentType().equals("application/json")) {
                    b.append(" as ").append(body.contentType());
                }
            }
            return b.toString();
        }
    }

    record ToolSpec(String name, JsonNode schema) {
    }

    record ToolCall(String tool, Who who, Body args, boolean stateless) {
    }

    @Provide
    Arbitrary<Req> restRequests() {
        List<Arbitrary<Req>> perRoute = routes.stream().map(BadInputFuzzIT::requestsFor).toList();
        return Arbitraries.oneOf(perRoute);
    }

    @Provide
    Arbitrary<ToolCall> toolCalls() {
        List<Arbitrary<ToolCall>> perTool = tools.stream().map(t -> Combinators.combine(callers(),
                        bodies(t.schema(), true), Arbitraries.of(false, true))
                .as((who, args, stateless) -> new ToolCall(t.name(), who, args, stateless))).toList();
        return Arbitraries.oneOf(perTool);
    }

    private static Arbitrary<Who> callers() {
        return Arbitraries.frequencyOf(
                Tuple.of(4, Arbitraries.just(Kind.ADMIN).map(k -> new Who(k, fx.tenant))),
                Tuple.of(3, Arbitraries.just(Kind.OPERATOR).map(k -> new Who(k, fx.tenant))),
                Tuple.of(2, Arbitraries.longs().map(l -> new Who(Kind.FRESH_ADMIN, new UUID(l, ~l)))));
    }

    private static Arbitrary<Req> requestsFor(RouteSpec route) {
        List<Param> pathParams = route.in("path");
        List<Param> queryParams = route.in("query");
        List<Param> headerParams = route.in("header");
        Arbitrary<Map<String, V>> path = pathValues(pathParams);
        Arbitrary<List<String[]>> query = queryValues(queryParams);
        Arbitrary<Map<String, String>> headers = headerValues(headerParams);
        Arbitrary<Body> body;
        if (route.body() != null) {
            body = bodies(route.body(), false);
        } else if (NO_BODY_METHODS.contains(route.method())) {
            body = Arbitraries.just(NO_BODY);
        } else {
            // a route that takes no body: mostly none, sometimes garbage it should ignore or refuse
            body = Arbitraries.frequencyOf(Tuple.of(3, Arbitraries.just(NO_BODY)), Tuple.of(1, garbageBodies()));
        }
        return Combinators.combine(callers(), path, query, headers, body, unknownQueryParams())
                .as((who, p, q, h, given, extra) -> {
                    Body b = given == NO_BODY ? null : given;
                    List<String[]> allQuery = new ArrayList<>(q);
                    boolean somethingBad = b != null || p.values().stream().anyMatch(v -> !v.raw().startsWith("@fx:"))
                            || q.stream().anyMatch(x -> x.length > 2) || !h.isEmpty();
                    if (!somethingBad) {
                        allQuery.add(extra);
                    }
                    return new Req(route, who, p, allQuery, h, b);
                });
    }

    // -- path parameters: the tenant's real resources mostly, fuzzed values otherwise

    private static Arbitrary<Map<String, V>> pathValues(List<Param> params) {
        if (params.isEmpty()) {
            return Arbitraries.just(Map.of());
        }
        List<Arbitrary<V>> each = params.stream().map(p -> Arbitraries.frequencyOf(
                Tuple.of(8, Arbitraries.just(new V("@fx:path:" + p.name(), "<fixture>"))),
                Tuple.of(2, badPathValues()))).toList();
        return Combinators.combine(each).as(values -> {
            Map<String, V> m = new LinkedHashMap<>();
            for (int i = 0; i < params.size(); i++) {
                m.put(params.get(i).name(), values.get(i));
            }
            return m;
        });
    }

    /** Already percent-encoded. */
    private static Arbitrary<V> badPathValues() {
        return Arbitraries.of(
                V.of("%00"), V.of("fz%00x"), V.of("%ED%A0%80"), V.of("x%ED%B0%80y"), V.of("%FF"), V.of("%C0%AE%C0%AE"),
                V.of(".."), V.of("%2e%2e"), V.of("%2F"), V.of("-1"), V.of("9223372036854775808"), V.of("1e999999"),
                V.of("null"), V.of("%20"), V.of("00000000-0000-0000-0000-000000000000"),
                V.of("zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz"), V.of("%27%3B--"), V.of("%25"), V.of("*"),
                new V("x".repeat(5000), "<5000 x>"), V.of("9999-12-31T23:59:59Z"), V.of("%7B%7D"));
    }

    // -- query parameters

    /** Each entry is {name, encoded value} for a plausible value, {name, encoded value, "bad"} otherwise. */
    private static Arbitrary<List<String[]>> queryValues(List<Param> params) {
        if (params.isEmpty()) {
            return Arbitraries.just(List.of());
        }
        List<Arbitrary<List<String[]>>> each = params.stream().map(p -> Arbitraries.frequencyOf(
                Tuple.of(4, Arbitraries.just(List.<String[]>of())),
                Tuple.of(3, plausibleQuery(p).map(v -> List.<String[]>of(new String[] {p.name(), v}))),
                Tuple.of(4, badQuery(p).map(v -> List.<String[]>of(new String[] {p.name(), v, "bad"}))),
                Tuple.of(1, Combinators.combine(plausibleQuery(p), badQuery(p)).as((a, b) -> List.<String[]>of(
                        new String[] {p.name(), a}, new String[] {p.name(), b, "bad"}))))).toList();
        return Combinators.combine(each).as(lists -> lists.stream().flatMap(List::stream).toList());
    }

    private static Arbitrary<String[]> unknownQueryParams() {
        return Arbitraries.of(new String[] {"fz%00", "1", "bad"}, new String[] {"fz", "%00", "bad"},
                new String[] {"limit", "-1", "bad"}, new String[] {"offset", "-9223372036854775809", "bad"},
                new String[] {"since", "99999999d", "bad"}, new String[] {"fz", "1"});
    }

    private static Arbitrary<String> plausibleQuery(Param p) {
        return plausible(p.name(), p.schema(), 1).map(v -> {
            String raw = v.raw();
            String text = raw.startsWith("\"") && raw.endsWith("\"") ? raw.substring(1, raw.length() - 1) : raw;
            return text.startsWith("@fx:") ? text : URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20");
        });
    }

    private static Arbitrary<String> badQuery(Param p) {
        String t = type(p.schema());
        boolean timeLike = timeLike(p.name(), p.schema());
        List<String> common = List.of("%00", "fz%00x", "%ED%A0%80", "x%ED%B0%80", "%FF%FE", "", "%20", "%27%22%5C",
                "x".repeat(5000), "a".repeat(70_000), "%5B%5D", "%7B%7D", "null", "-1", "9223372036854775808");
        List<String> numbers = List.of("-1", "-2147483649", "2147483648", "-9223372036854775809", "9223372036854775808",
                "18446744073709551616", "1e999999", "-1e999999", "NaN", "Infinity", "1.5", "0x10", "abc", "0", "-0",
                "99999999999999999999999999999");
        List<String> times = List.of("9999-12-31T23:59:59Z", "-1000000-01-01T00:00:00Z", "%2B1000000-01-01T00:00:00Z",
                "99999999d", "999999999999999999999h", "99999999w", "-5m", "0s", "1y", "2024-02-30T00:00:00Z",
                "1970-01-01T00:00:00Z", "P99999999D", "24", "h", "9223372036854775807m");
        List<String> booleans = List.of("maybe", "TRUE", "2", "%00", "");
        List<String> pool = new ArrayList<>(common);
        if (t.equals("integer") || t.equals("number")) {
            pool.addAll(numbers);
            pool.addAll(numbers);
        }
        if (timeLike) {
            pool.addAll(times);
            pool.addAll(times);
        }
        if (t.equals("boolean")) {
            pool.addAll(booleans);
        }
        return Arbitraries.of(pool);
    }

    private static Arbitrary<Map<String, String>> headerValues(List<Param> params) {
        if (params.isEmpty()) {
            return Arbitraries.just(Map.of());
        }
        List<Arbitrary<Optional<String>>> each = params.stream().map(p -> Arbitraries.frequencyOf(
                Tuple.of(9, Arbitraries.just(Optional.<String>empty())),
                Tuple.of(1, Arbitraries.of("not-a-uuid", "00000000-0000-0000-0000-000000000000", "", "-1",
                        UUID.randomUUID().toString(), "x".repeat(2000)).map(Optional::of)))).toList();
        return Combinators.combine(each).as(values -> {
            Map<String, String> m = new LinkedHashMap<>();
            for (int i = 0; i < params.size(); i++) {
                int index = i;
                values.get(i).ifPresent(v -> m.put(params.get(index).name(), v));
            }
            return m;
        });
    }

    // -- bodies

    private static Arbitrary<Body> garbageBodies() {
        return Arbitraries.of(
                new Body("", "empty", "application/json"),
                new Body("not json at all", "non-JSON", "application/json"),
                new Body("{", "truncated", "application/json"),
                new Body("<a/>", "XML", "application/xml"),
                new Body("a=1&b=%00", "form", "application/x-www-form-urlencoded"),
                new Body("\u0000\u0001" + INVALID_BYTE + LONE_SURROGATE_BYTES, "raw NUL + invalid UTF-8", "application/json"),
                new Body(DEEP_ARRAY, "5000-deep array", "application/json"),
                new Body(DEEP_OBJECT, "5000-deep object", "application/json"),
                new Body("{\"a\":1,\"a\":2}", "duplicate keys", "application/json"),
                new Body("[null]", "array of null", "application/json"),
                new Body("\"" + MB_STRING + "x".repeat(60_000) + "\"", "string over 1 MiB", "application/json"));
    }

    /** Bodies for an object schema: mostly a plausible object with one or more fields made bad. */
    private static Arbitrary<Body> bodies(JsonNode schema, boolean forMcp) {
        List<Field> fields = fields(schema);
        List<Tuple.Tuple2<Integer, Arbitrary<Body>>> kinds = new ArrayList<>();
        kinds.add(Tuple.of(14, mutatedObject(fields, 0).map(v -> new Body(v.raw(), v.label(), "application/json"))));
        kinds.add(Tuple.of(2, Arbitraries.just(allNull(fields))));
        kinds.add(Tuple.of(2, duplicateKeys(fields)));
        kinds.add(Tuple.of(1, keysWithNul(fields)));
        kinds.add(Tuple.of(1, Arbitraries.of(
                new Body("[]", "array instead of object", "application/json"),
                new Body("[{}]", "array of object", "application/json"),
                new Body("null", "null body", "application/json"),
                new Body("\"x\"", "string body", "application/json"),
                new Body("1e999999", "huge number body", "application/json"),
                new Body(DEEP_ARRAY, "5000-deep array", "application/json"),
                new Body(DEEP_OBJECT, "5000-deep object", "application/json"))));
        if (!forMcp) {
            kinds.add(Tuple.of(2, garbageBodies()));
            kinds.add(Tuple.of(1, Arbitraries.of("text/plain", "", "application/json; charset=latin1")
                    .flatMap(ct -> mutatedObject(fields, 0).map(v -> new Body(v.raw(), v.label() + " as '" + ct + "'",
                            ct)))));
        }
        return Arbitraries.frequencyOf(kinds);
    }

    private static Body allNull(List<Field> fields) {
        String text = fields.isEmpty() ? "{\"fz\":null}" : fields.stream().map(f -> quote(f.name()) + ":null")
                .collect(Collectors.joining(",", "{", "}"));
        return new Body(text, "every field null", "application/json");
    }

    private static Arbitrary<Body> duplicateKeys(List<Field> fields) {
        if (fields.isEmpty()) {
            return Arbitraries.just(new Body("{\"fz\":1,\"fz\":\"\\u0000\"}", "duplicate key", "application/json"));
        }
        return Arbitraries.of(fields).flatMap(f -> Combinators.combine(plausible(f.name(), f.schema(), 1),
                        bad(f.name(), f.schema(), 1), base(fields, f.name()), Arbitraries.of(true, false))
                .as((good, evil, rest, goodFirst) -> {
                    String pair = goodFirst ? quote(f.name()) + ":" + good.raw() + "," + quote(f.name()) + ":" + evil.raw()
                            : quote(f.name()) + ":" + evil.raw() + "," + quote(f.name()) + ":" + good.raw();
                    return new Body("{" + pair + (rest.isEmpty() ? "" : "," + rest) + "}", "duplicate key " + f.name()
                            + " (" + (goodFirst ? "then " : "first ") + evil.label() + ")", "application/json");
                }));
    }

    private static Arbitrary<Body> keysWithNul(List<Field> fields) {
        return Combinators.combine(base(fields, ""), Arbitraries.of("\"fz\\u0000\"", "\"\\u0000\"", "\"\\ud800\"",
                        "\"" + (fields.isEmpty() ? "fz" : fields.get(0).name()) + "\\u0000\"", "\"\"",
                        "\"" + "k".repeat(100_000) + "\""))
                .as((rest, key) -> new Body("{" + key + ":1" + (rest.isEmpty() ? "" : "," + rest) + "}",
                        "odd key " + excerpt(key, 30), "application/json"));
    }

    /** The required fields with plausible values, except {@code skip}, as "k":v pairs. */
    private static Arbitrary<String> base(List<Field> fields, String skip) {
        List<Field> required = fields.stream().filter(f -> f.required() && !f.name().equals(skip)).toList();
        if (required.isEmpty()) {
            return Arbitraries.just("");
        }
        return Combinators.combine(required.stream().map(f -> plausible(f.name(), f.schema(), 1)
                        .map(v -> quote(f.name()) + ":" + v.raw())).toList())
                .as(pairs -> String.join(",", pairs));
    }

    record Slot(String name, V value, boolean bad) {
    }

    /** An object of plausible fields (optional ones sometimes left out) with at least one bad one. */
    private static Arbitrary<V> mutatedObject(List<Field> fields, int depth) {
        if (fields.isEmpty()) {
            return bad("fz", JSON.createObjectNode(), depth + 1).map(v -> new V("{\"fz\":" + v.raw() + "}",
                    "unknown field fz=" + v.label()));
        }
        List<Arbitrary<Slot>> slots = new ArrayList<>();
        for (Field f : fields) {
            List<Tuple.Tuple2<Integer, Arbitrary<Slot>>> options = new ArrayList<>();
            options.add(Tuple.of(f.required() ? 8 : 3, plausible(f.name(), f.schema(), depth + 1)
                    .map(v -> new Slot(f.name(), v, false))));
            if (!f.required()) {
                options.add(Tuple.of(5, Arbitraries.just(new Slot(f.name(), null, false))));
            }
            options.add(Tuple.of(1, bad(f.name(), f.schema(), depth + 1).map(v -> new Slot(f.name(), v, true))));
            slots.add(Arbitraries.frequencyOf(options));
        }
        Arbitrary<Slot> forced = Arbitraries.integers().between(0, fields.size() - 1).flatMap(i -> {
            Field f = fields.get(i);
            return bad(f.name(), f.schema(), depth + 1).map(v -> new Slot(f.name(), v, true));
        });
        return Combinators.combine(Combinators.combine(slots).as(l -> l), forced).as((list, force) -> {
            List<String> pairs = new ArrayList<>();
            List<String> labels = new ArrayList<>();
            for (Slot s : list) {
                Slot use = s.name().equals(force.name()) ? force : s;
                if (use.value() == null) {
                    continue;
                }
                pairs.add(quote(use.name()) + ":" + use.value().raw());
                if (use.bad()) {
                    labels.add(use.name() + "=" + use.value().label());
                }
            }
            return new V("{" + String.join(",", pairs) + "}", String.join(", ", labels));
        });
    }

    // -- values

    private static boolean timeLike(String name, JsonNode schema) {
        String n = name.toLowerCase(Locale.ROOT);
        return "date-time".equals(deref(schema).path("format").asText()) || n.contains("expire") || n.equals("since")
                || n.equals("until") || n.endsWith("_at") || n.contains("time");
    }

    private static Arbitrary<V> plausible(String name, JsonNode schema, int depth) {
        schema = deref(schema);
        JsonNode s = schema == null ? JSON.createObjectNode() : schema;
        String t = type(s);
        if (s.has("enum")) {
            List<V> values = new ArrayList<>();
            s.path("enum").forEach(e -> values.add(V.of(e.toString())));
            return Arbitraries.of(values);
        }
        if (t.equals("oneOf")) {
            List<Arbitrary<V>> alternatives = new ArrayList<>();
            s.path("oneOf").forEach(alt -> alternatives.add(plausible(name, alt, depth)));
            return Arbitraries.oneOf(alternatives);
        }
        if (t.equals("string") || t.equals("any")) {
            Optional<Arbitrary<V>> named = plausibleString(name, s);
            if (named.isPresent()) {
                return named.get();
            }
            if ("uuid".equals(s.path("format").asText())) {
                return Arbitraries.longs().map(l -> V.of(quote(new UUID(l, l * 31).toString())));
            }
            if (timeLike(name, s)) {
                return Arbitraries.of(V.of(quote(Instant.now().plus(Duration.ofDays(1)).toString())), V.of("\"24h\""));
            }
            return Arbitraries.strings().withCharRange('a', 'z').ofMinLength(1).ofMaxLength(8)
                    .map(x -> V.of(quote("fz-" + x)));
        }
        switch (t) {
            case "integer", "number" -> {
                long min = s.has("minimum") ? s.path("minimum").asLong() : 1;
                long max = s.has("maximum") ? s.path("maximum").asLong() : Math.max(min, 10);
                if (name.equals("count")) {
                    return Arbitraries.just(V.of("3"));
                }
                return Arbitraries.longs().between(min, max).map(l -> V.of(Long.toString(l)));
            }
            case "boolean" -> {
                return Arbitraries.of(V.of("true"), V.of("false"));
            }
            case "array" -> {
                if (depth > 3) {
                    return Arbitraries.just(V.of("[]"));
                }
                return plausible(name, s.path("items"), depth + 1).list().ofMinSize(1).ofMaxSize(2)
                        .map(l -> V.of(l.stream().map(V::raw).collect(Collectors.joining(",", "[", "]"))));
            }
            case "object" -> {
                return plausibleObject(name, s, depth);
            }
            default -> {
                return Arbitraries.just(V.of("\"fz\""));
            }
        }
    }

    private static Arbitrary<V> plausibleObject(String name, JsonNode schema, int depth) {
        switch (name) {
            case "params":
                return Arbitraries.of(V.of("{\"count\":3}"), V.of("{\"name\":\"x\"}"), V.of("{}"));
            case "fields":
                return Arbitraries.just(V.of("{\"username\":\"u\",\"password\":\"p\"}"));
            case "backend_ref":
                return Arbitraries.of(V.of("{\"url\":\"@fx:corpus_url\"}"), V.of("{}"));
            case "auth_settings", "extras", "filters", "metadata", "headers":
                return Arbitraries.of(V.of("{}"), V.of("{\"k\":\"v\"}"));
            default:
                break;
        }
        List<Field> fields = fields(schema);
        if (fields.isEmpty() || depth > 3) {
            return Arbitraries.just(V.of("{}"));
        }
        List<Arbitrary<Optional<String>>> pairs = fields.stream().map(f -> f.required()
                ? plausible(f.name(), f.schema(), depth + 1).map(v -> Optional.of(quote(f.name()) + ":" + v.raw()))
                : Arbitraries.frequencyOf(Tuple.of(1, Arbitraries.just(Optional.<String>empty())),
                        Tuple.of(1, plausible(f.name(), f.schema(), depth + 1)
                                .map(v -> Optional.of(quote(f.name()) + ":" + v.raw()))))).toList();
        return Combinators.combine(pairs).as(l -> V.of(l.stream().flatMap(Optional::stream)
                .collect(Collectors.joining(",", "{", "}"))));
    }

    /** Names that need a real value of the fixture tenant, or a value of a known shape, to get anywhere. */
    private static Optional<Arbitrary<V>> plausibleString(String name, JsonNode schema) {
        Arbitrary<String> lower = Arbitraries.strings().withCharRange('a', 'z').ofLength(6);
        Arbitrary<V> v = switch (name) {
            case "connector_id", "preferred_impl_id" -> Arbitraries.just(V.of("\"fz-1.x\""));
            case "op_id" -> Arbitraries.of(V.of("\"fz.item0.list\""), V.of("\"fz.item1.get\""),
                    V.of("\"fz.status.typed\""));
            case "op" -> Arbitraries.of(V.of("\"fz.item0.*\""), V.of("\"fz.item0.list\""));
            case "target", "target_name", "seed_target" -> "uuid".equals(schema.path("format").asText())
                    ? Arbitraries.just(V.of("\"@fx:target_id\"")) : Arbitraries.of(V.of("\"t1\""), V.of("\"*\""));
            case "product", "target_product" -> Arbitraries.just(V.of("\"fz\""));
            case "handle_id" -> Arbitraries.just(V.of("\"@fx:handle\""));
            case "principal" -> Arbitraries.just(V.of("\"fz-agent-sub\""));
            case "owner_sub" -> Arbitraries.just(V.of("\"@fx:admin_sub\""));
            case "catalog" -> Arbitraries.just(V.of("\"fz/1.x\""));
            case "collection" -> Arbitraries.of(V.of("\"@fx:collection\""), V.of("\"all\""));
            case "query" -> Arbitraries.of(V.of("\"list items\""), V.of("\"restart\""));
            case "directory" -> Arbitraries.just(V.of("\"docs\""));
            case "host" -> Arbitraries.just(V.of("\"127.0.0.1\""));
            case "secret_ref" -> Arbitraries.just(V.of("\"tenants/@fx:tenant/fz\""));
            case "url" -> Arbitraries.just(V.of("\"@fx:corpus_url\""));
            case "kind" -> Arbitraries.just(V.of("\"alertrouter\""));
            case "auth_strategy" -> Arbitraries.just(V.of("\"static-header\""));
            case "secret" -> Arbitraries.just(V.of("\"fz-secret-0123456789abcdef\""));
            case "scope" -> Arbitraries.of(V.of("\"user\""), V.of("\"tenant\""), V.of("\"user-tenant\""));
            case "to" -> Arbitraries.of(V.of("\"tenant\""), V.of("\"user-tenant\""));
            case "version" -> Arbitraries.just(V.of("\"1.x\""));
            case "impl" -> Arbitraries.just(V.of("\"fzi\""));
            case "field" -> Arbitraries.of(V.of("\"name\""), V.of("\"index\""), V.of("\"even\""));
            case "since" -> Arbitraries.of(V.of("\"24h\""), V.of("\"7d\""));
            case "until" -> Arbitraries.of(V.of("\"1m\""), V.of(quote(Instant.now().toString())));
            case "status" -> Arbitraries.of(V.of("\"active\""), V.of("\"paused\""));
            case "name", "slug", "key" -> lower.map(x -> V.of(quote("fz-" + x)));
            case "content" -> Arbitraries.just(V.of("\"openapi: 3.0.0\\ninfo: {title: x, version: '1'}\\npaths: {}\\n\""));
            case "tls_ca_pin", "tls_server_name", "fqdn", "notes", "work_ref", "reason", "body", "description",
                 "when_to_use", "custom_description", "vendor", "cursor", "principal_kind" -> Arbitraries.just(
                    V.of("\"fz " + name + "\""));
            default -> null;
        };
        return Optional.ofNullable(v);
    }

    private static final List<V> NUL_AND_SURROGATES = List.of(
            V.of("\"fz\\u0000x\""), V.of("\"\\u0000\""), new V("\"fz\u0000x\"", "\"fz<raw NUL>x\""),
            V.of("\"\\ud800\""), V.of("\"x\\udfffy\""), V.of("\"\\ud800\\u0000\""), V.of("\"\\udbff\\udbff\""),
            new V("\"x" + LONE_SURROGATE_BYTES + "y\"", "\"x<bytes ED A0 80>y\""),
            new V("\"x" + INVALID_BYTE + "y\"", "\"x<byte FF>y\""));
    private static final List<V> NUMBERS = List.of(
            V.of("1e999999"), V.of("-1e999999"), V.of("9223372036854775808"), V.of("-9223372036854775809"),
            V.of("18446744073709551616"), V.of("2147483648"), V.of("-2147483649"), V.of("-1"), V.of("0"), V.of("-0"),
            V.of("1e-999999"), V.of("1.5"), V.of("123456789012345678901234567890"), V.of("NaN"), V.of("Infinity"),
            V.of("-9223372036854775808"), V.of("9223372036854775807"));
    private static final List<V> TIMES = List.of(
            V.of("\"9999-12-31T23:59:59Z\""), V.of("\"-1000000-01-01T00:00:00Z\""), V.of("\"+1000000-01-01T00:00:00Z\""),
            V.of("\"99999999d\""), V.of("\"999999999999999999999h\""), V.of("\"9223372036854775807m\""),
            V.of("\"-5m\""), V.of("\"0s\""), V.of("\"2024-02-30T00:00:00Z\""), V.of("\"1970-01-01T00:00:00Z\""),
            V.of("\"P99999999D\""), V.of("\"\""), V.of("\"0000-00-00T00:00:00Z\""), V.of("\"2024-01-01T25:61:61Z\""),
            V.of("\"2000-01-01T00:00:00Z\""), V.of("253402300800"), V.of("-62167219200000"));
    private static final List<V> WRONG_TYPES = List.of(
            V.of("\"12\""), V.of("\"abc\""), V.of("{}"), V.of("{\"a\":1}"), V.of("[]"), V.of("[1]"), V.of("true"), V.of("1"),
            V.of("null"), V.of("[null]"), V.of("[null,null]"), V.of("{\"\\u0000\":null}"), V.of("\"\""));
    private static final List<V> HUGE = List.of(
            new V("\"" + MB_STRING + "\"", "<1,000,000-char string>"),
            new V("\"" + "\\u0000".repeat(170_000) + "\"", "<170,000 NUL escapes>"),
            new V("\"" + "é".repeat(400_000) + "\"", "<400,000 two-byte chars>"),
            new V("\"" + MB_STRING + "x".repeat(60_000) + "\"", "<string over 1 MiB>"),
            new V(DEEP_ARRAY, "<5000-deep array>"), new V(DEEP_OBJECT, "<5000-deep object>"),
            new V("[" + "1,".repeat(150_000) + "1]", "<150,001-element array>"));
    private static final List<V> ALL_BAD;

    static {
        List<V> all = new ArrayList<>();
        all.addAll(NUL_AND_SURROGATES);
        all.addAll(NUMBERS);
        all.addAll(TIMES);
        all.addAll(WRONG_TYPES);
        all.addAll(HUGE);
        ALL_BAD = List.copyOf(all);
    }

    private static Arbitrary<V> bad(String name, JsonNode schema, int depth) {
        JsonNode s = deref(schema) == null ? JSON.createObjectNode() : deref(schema);
        String t = type(s);
        List<Tuple.Tuple2<Integer, Arbitrary<V>>> options = new ArrayList<>();
        switch (t) {
            case "string", "any", "oneOf" -> {
                options.add(Tuple.of(6, Arbitraries.of(NUL_AND_SURROGATES)));
                options.add(Tuple.of(3, Arbitraries.of(WRONG_TYPES)));
                options.add(Tuple.of(1, Arbitraries.of(NUMBERS)));
                options.add(Tuple.of(1, Arbitraries.of(HUGE)));
                // a plausible value with a NUL or a lone surrogate inside
                options.add(Tuple.of(3, Combinators.combine(plausible(name, s, depth),
                        Arbitraries.of("\\u0000", "\\ud800", "\\udc00\\u0000")).as((v, x) -> v.raw().startsWith("\"")
                        && v.raw().endsWith("\"") && v.raw().length() > 1
                        ? V.of(v.raw().substring(0, v.raw().length() - 1) + x + "\"") : V.of("\"" + x + "\""))));
                if (timeLike(name, s)) {
                    options.add(Tuple.of(8, Arbitraries.of(TIMES)));
                }
            }
            case "integer", "number" -> {
                options.add(Tuple.of(8, Arbitraries.of(NUMBERS)));
                options.add(Tuple.of(3, Arbitraries.of(WRONG_TYPES)));
                options.add(Tuple.of(1, Arbitraries.of(NUL_AND_SURROGATES)));
            }
            case "boolean" -> {
                options.add(Tuple.of(4, Arbitraries.of(V.of("\"true\""), V.of("1"), V.of("0"), V.of("null"), V.of("{}"),
                        V.of("[true]"), V.of("\"\\u0000\""))));
                options.add(Tuple.of(1, Arbitraries.of(NUMBERS)));
            }
            case "array" -> {
                options.add(Tuple.of(4, plausible(name, s.path("items"), depth + 1).map(v -> V.of("[null," + v.raw() + "]"))));
                options.add(Tuple.of(2, Arbitraries.of(V.of("[null]"), V.of("[[]]"), V.of("[{}]"), V.of("\"x\""), V.of("{}"),
                        V.of("null"), V.of("[1e999999]"), V.of("[\"\\u0000\"]"), V.of("[\"\\ud800\"]"))));
                if (depth < 3) {
                    options.add(Tuple.of(3, bad(name, s.path("items"), depth + 1).map(v -> new V("[" + v.raw() + "]",
                            "[" + v.label() + "]"))));
                }
                options.add(Tuple.of(1, Arbitraries.of(HUGE)));
            }
            default -> { // object
                options.add(Tuple.of(3, Arbitraries.of(V.of("[]"), V.of("[{}]"), V.of("\"x\""), V.of("1"), V.of("null"),
                        V.of("{\"k\":null}"), V.of("{\"\\u0000\":\"\\u0000\"}"), V.of("{\"\\ud800\":1}"),
                        V.of("{\"k\":[null]}"), V.of("{\"k\":{\"k\":1e999999}}"))));
                options.add(Tuple.of(1, Arbitraries.of(HUGE)));
                List<Field> nested = fields(s);
                if (!nested.isEmpty() && depth < 3) {
                    options.add(Tuple.of(5, mutatedObject(nested, depth + 1).map(v -> new V(v.raw(), "{" + v.label() + "}"))));
                } else {
                    options.add(Tuple.of(2, Arbitraries.of(NUL_AND_SURROGATES).map(v -> new V("{\"k\":" + v.raw() + "}",
                            "{k: " + v.label() + "}"))));
                }
            }
        }
        options.add(Tuple.of(1, Arbitraries.of(ALL_BAD)));
        return Arbitraries.frequencyOf(options);
    }

    // ------------------------------------------------------------------------------------------------
    // HTTP

    /**
     * The status of a request the kernel never answered: the connection was closed or reset first. That is a defect,
     * like a 5xx, and never counts as a refusal. No request is exempt: there are no deliberately malformed transport
     * cases in this suite — every input the generators make (invalid UTF-8, NUL, 5,000-deep nesting, bodies over the
     * 1 MiB cap, wrong content types) is sent as a well-formed HTTP/1.1 request, and the kernel answers each one,
     * the ones Helidon refuses before routing included (its direct handlers answer them with a JSON 4xx).
     */
    static final int NO_ANSWER = 0;

    record Resp(int status, String body, String requestId, String trace) {
        boolean unanswered() {
            return status == NO_ANSWER;
        }

        String errorCode() {
            try {
                return JSON.readTree(body).path("error").asText("");
            } catch (IOException | RuntimeException e) {
                return "";
            }
        }

        String excerpt() {
            return excerpt(body, 300);
        }

        private static String excerpt(String s, int max) {
            return BadInputFuzzIT.excerpt(s == null ? "" : s, max);
        }

        /** The kernel frame responsible, from the log record of this request (past the JDBC helper and caches). */
        String location() {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("at (dev\\.backplane\\.kernel\\.[\\w.$]+)\\.[\\w$<>]+"
                    + "\\(([\\w]+\\.java:\\d+)\\)").matcher(trace);
            String first = "";
            while (m.find()) {
                if (first.isEmpty()) {
                    first = "@" + m.group(2);
                }
                if (!INFRASTRUCTURE.matcher(m.group(1)).matches()) {
                    return "@" + m.group(2);
                }
            }
            return first;
        }
    }

    private static Resp send(Req req) {
        String id = "fz-" + requestCount.incrementAndGet();
        StringBuilder url = new StringBuilder(kernel.url());
        String path = req.route().path();
        for (Map.Entry<String, V> e : req.path().entrySet()) {
            String raw = e.getValue().raw();
            String value = raw.startsWith("@fx:path:") ? encodePath(fx.pathValue(req.route().path(), e.getKey())) : raw;
            path = path.replace("{" + e.getKey() + "}", value);
        }
        url.append(path);
        if (!req.query().isEmpty()) {
            url.append('?').append(req.query().stream().map(q -> q[0] + "=" + (q[1].startsWith("@fx:")
                    ? encodePath(fx.resolve(q[1])) : q[1])).collect(Collectors.joining("&")));
        }
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url.toString())).timeout(Duration.ofSeconds(60))
                .header("X-Request-Id", id).header("Authorization", "Bearer " + token(req.who()));
        req.headers().forEach(b::header);
        if (req.body() == null) {
            b.method(req.route().method(), HttpRequest.BodyPublishers.noBody());
        } else {
            if (!req.body().contentType().isEmpty()) {
                b.header("Content-Type", req.body().contentType());
            }
            b.method(req.route().method(), HttpRequest.BodyPublishers.ofByteArray(encode(fx.resolve(req.body().text()))));
        }
        Resp r = exchange(b.build(), id);
        routesHit.add(req.route().key());
        count(r.unanswered() ? "no answer" : r.status() / 100 + "xx");
        return r;
    }

    private static Resp exchange(HttpRequest request, String id) {
        logs.drain();
        try {
            HttpResponse<String> r = dev.backplane.kernel.testing.EventStreams.send(http, request);
            return new Resp(r.statusCode(), r.body(), id, logs.traceFor(id));
        } catch (IOException e) {
            // the connection was closed or reset with no answer: never a refusal (see NO_ANSWER)
            transportErrors.incrementAndGet();
            return new Resp(NO_ANSWER, "no answer: " + e, id, logs.traceFor(id));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static synchronized void count(String key) {
        statusCounts.merge(key, 1L, Long::sum);
    }

    private static String token(Who who) {
        return switch (who.kind()) {
            case ADMIN -> fx.adminToken();
            case OPERATOR -> fx.operatorToken();
            case FRESH_ADMIN -> issuer.token("fz-fresh-admin", who.tenant(), "tenant_admin");
        };
    }

    private static String encodePath(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /** UTF-8, except the placeholders for byte sequences no Java string encodes. */
    private static byte[] encode(String text) {
        if (text.indexOf(LONE_SURROGATE_BYTES) < 0 && text.indexOf(INVALID_BYTE) < 0) {
            return text.getBytes(StandardCharsets.UTF_8);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(text.length() + 16);
        StringBuilder run = new StringBuilder();
        for (char c : text.toCharArray()) {
            if (c == LONE_SURROGATE_BYTES || c == INVALID_BYTE) {
                out.writeBytes(run.toString().getBytes(StandardCharsets.UTF_8));
                run.setLength(0);
                out.writeBytes(c == INVALID_BYTE ? new byte[] {(byte) 0xFF}
                        : new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80});
            } else {
                run.append(c);
            }
        }
        out.writeBytes(run.toString().getBytes(StandardCharsets.UTF_8));
        return out.toByteArray();
    }

    private static String quote(String s) {
        try {
            return JSON.writeValueAsString(s);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A printable prefix of {@code s} with long runs (of up to six characters) collapsed; linear, no regex. */
    static String excerpt(String s, int max) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < s.length() && out.length() < max) {
            boolean collapsed = false;
            for (int len = 1; len <= 6 && !collapsed && i + len * 40 <= s.length(); len++) {
                String unit = s.substring(i, i + len);
                int reps = 1;
                while (s.startsWith(unit, i + reps * len)) {
                    reps++;
                }
                if (reps >= 40) {
                    unit.chars().forEach(c -> out.append(printable((char) c)));
                    out.append("<x").append(reps).append('>');
                    i += reps * len;
                    collapsed = true;
                }
            }
            if (!collapsed) {
                out.append(printable(s.charAt(i)));
                i++;
            }
        }
        return i < s.length() ? out + "…(" + s.length() + " chars)" : out.toString();
    }

    private static String printable(char c) {
        return switch (c) {
            case '\u0000' -> "<NUL>";
            case LONE_SURROGATE_BYTES -> "<ED A0 80>";
            case INVALID_BYTE -> "<FF>";
            case '\n' -> "\\n";
            default -> Character.isSurrogate(c) ? String.format("<U+%04X>", (int) c) : String.valueOf(c);
        };
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static List<ToolSpec> listTools() throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(kernel.url() + "/mcp"))
                .header("Authorization", "Bearer " + issuer.mcpToken(fx.adminSub, fx.tenant, "tenant_admin"))
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}"))
                .build();
        HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        List<ToolSpec> out = new ArrayList<>();
        for (JsonNode t : JSON.readTree(r.body()).path("result").path("tools")) {
            out.add(new ToolSpec(t.path("name").asText(), t.path("inputSchema")));
        }
        return out;
    }

    /** Kernel log records (warnings and errors) of the request in flight, with their stack traces. */
    private static final class LogCapture extends Handler {
        private final ConcurrentLinkedQueue<LogRecord> records = new ConcurrentLinkedQueue<>();

        LogCapture() {
            setLevel(Level.WARNING);
        }

        @Override
        public void publish(LogRecord record) {
            if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
                records.add(record);
            }
        }

        void drain() {
            records.clear();
        }

        String traceFor(String requestId) {
            StringBuilder b = new StringBuilder();
            for (Iterator<LogRecord> it = records.iterator(); it.hasNext(); ) {
                LogRecord r = it.next();
                String msg = String.valueOf(r.getMessage());
                if (r.getThrown() == null && !msg.contains(requestId) && r.getLevel().intValue() < Level.SEVERE.intValue()) {
                    continue;
                }
                b.append(excerpt(msg, 200));
                Throwable t = r.getThrown();
                if (t != null) {
                    Throwable root = t;
                    while (root.getCause() != null && root.getCause() != root) {
                        root = root.getCause();
                    }
                    b.append(" | ").append(excerpt(t.toString(), 300));
                    if (root != t) {
                        b.append(" | root cause ").append(excerpt(root.toString(), 300));
                    }
                    List<StackTraceElement> frames = new ArrayList<>();
                    for (Throwable x = t; x != null; x = x.getCause() == x ? null : x.getCause()) {
                        frames.addAll(Arrays.asList(x.getStackTrace()));
                    }
                    String kernelFrames = frames.stream().filter(f -> f.getClassName().startsWith("dev.backplane.kernel"))
                            .limit(6).map(f -> "at " + f.getClassName() + "." + f.getMethodName() + "(" + f.getFileName()
                                    + ":" + f.getLineNumber() + ")").collect(Collectors.joining(" "));
                    b.append(" | ").append(kernelFrames);
                }
                b.append(" ;; ");
            }
            return b.toString().replaceAll("\\s*\\R\\s*", " / ");
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    }

    // ------------------------------------------------------------------------------------------------
    // the fixture tenant and the upstream it talks to

    private static HttpServer startUpstream() throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/", ex -> {
            String p = ex.getRequestURI().getPath();
            ex.getRequestBody().readAllBytes();
            if (p.equals("/version")) {
                answer(ex, 200, "1.0");
            } else if (p.equals("/items")) {
                int n = 3;
                try {
                    n = Math.min(5000, Math.max(0, Integer.parseInt(String.valueOf(ex.getRequestURI().getQuery())
                            .replace("count=", ""))));
                } catch (NumberFormatException e) {
                    // keep 3
                }
                StringBuilder b = new StringBuilder();
                for (int i = 0; i < n; i++) {
                    b.append("item-").append(i).append('\n');
                }
                answer(ex, 200, b.toString());
            } else if (p.equals("/members")) {
                answer(ex, 200, "m1,m2");
            } else if (p.equals("/corpus")) {
                answer(ex, 200, "{\"chunks\":[{\"id\":\"c1\",\"title\":\"Items\",\"url\":\"https://docs.example.com/items\","
                        + "\"text\":\"List the items of an fz appliance with the item list operation.\",\"score\":1.0}]}");
            } else {
                answer(ex, 200, "{}");
            }
        });
        server.start();
        return server;
    }

    private static void answer(HttpExchange ex, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            ex.getResponseBody().write(bytes);
        }
        ex.close();
    }

    /** The fixture tenant's resources, created once and put back when a fuzzed request changed them. */
    static final class Fixtures {
        final UUID tenant = UUID.randomUUID();
        final String adminSub = "fz-admin-" + tenant.toString().substring(0, 8);
        final String operatorSub = "fz-operator-" + tenant.toString().substring(0, 8);
        final String eventSecret = "fz-event-secret-0123456789abcdef";
        private String adminToken;
        private String operatorToken;
        private long tokensAt;
        String targetId = "";
        String handle = "";
        String auditId = "";
        String runHandle = "";
        String approval = "";
        String memorySlug = "fz-mem";
        String kbSlug = "fz-kb";
        String kbJob = "";
        String collection = "fzc-" + tenant.toString().substring(0, 6);
        String agentName = "";
        String grant = "";
        String serviceGrant = "";
        String eventSlug = "";
        String eventId = "";
        private int generation;

        synchronized String adminToken() {
            refreshTokens();
            return adminToken;
        }

        synchronized String operatorToken() {
            refreshTokens();
            return operatorToken;
        }

        private void refreshTokens() {
            if (adminToken == null || System.nanoTime() - tokensAt > 120_000_000_000L) {
                adminToken = issuer.token(adminSub, tenant, "tenant_admin");
                operatorToken = issuer.token(operatorSub, tenant, "operator");
                tokensAt = System.nanoTime();
            }
        }

        String corpusUrl() {
            return "http://127.0.0.1:" + upstream.getAddress().getPort() + "/corpus";
        }

        /** Replaces the {@code @fx:} placeholders of generated text with the fixtures' current values. */
        String resolve(String text) {
            if (!text.contains("@fx:")) {
                return text;
            }
            return text.replace("@fx:target_id", targetId).replace("@fx:handle", handle)
                    .replace("@fx:admin_sub", adminSub).replace("@fx:collection", collection)
                    .replace("@fx:tenant", tenant.toString()).replace("@fx:corpus_url", corpusUrl());
        }

        String pathValue(String route, String param) {
            return switch (param) {
                case "connector_id" -> "fz-1.x";
                case "group_key" -> "items";
                case "op_id" -> "fz.item0.list";
                case "job_id" -> route.startsWith("/api/v1/kb") ? kbJob : UUID.randomUUID().toString();
                case "scope" -> "tenant";
                case "slug" -> route.startsWith("/api/v1/memory") ? memorySlug : route.startsWith("/api/v1/kb") ? kbSlug
                        : eventSlug;
                case "key" -> collection;
                case "tenant_id" -> tenant.toString();
                case "name" -> route.startsWith("/api/v1/agent-principals") ? agentName : "t1";
                case "target" -> "t1";
                case "id" -> route.startsWith("/api/v1/approvals") ? approval
                        : route.startsWith("/api/v1/agent-grants") ? grant
                        : route.startsWith("/api/v1/service-principals") ? serviceGrant
                        : route.startsWith("/api/v1/events") ? eventId : UUID.randomUUID().toString();
                case "audit_id" -> auditId;
                case "handle" -> runHandle;
                case "session_id" -> UUID.randomUUID().toString();
                default -> "fz";
            };
        }

        /** Sends junk on purpose: the answer is held to the OpenAPI document, the request is not. */
        private TestKernel.Response as(String token, String method, String path, String body) {
            try (var junk = ApiContract.acceptingInvalidRequests()) {
                return kernel.send(method, path, token, body, Map.of());
            }
        }

        private JsonNode expect(TestKernel.Response r, int... statuses) {
            assertThat(statuses).as(r.body()).contains(r.status());
            return r.body().isEmpty() ? JSON.createObjectNode() : r.json();
        }

        void setUp() {
            String admin = adminToken();
            String operator = operatorToken();
            ensureTarget();
            expect(as(admin, "POST", "/api/v1/connectors/fz-1.x/enable-reads", null), 200);
            ensureConnector();
            expect(as(operator, "POST", "/api/v1/targets/t1/probe", null), 200);
            JsonNode listed = expect(as(operator, "POST", "/api/v1/operations/call", "{\"connector_id\":\"fz-1.x\","
                    + "\"op_id\":\"fz.item0.list\",\"target\":\"t1\",\"params\":{\"count\":120}}"), 200);
            handle = listed.path("extras").path("fetch_more").path("drill_in").path("handle_id").asText();
            auditId = listed.path("extras").path("audit_id").asText();
            assertThat(handle).as(listed.toString()).isNotEmpty();
            JsonNode run = expect(as(operator, "POST", "/api/v1/operations/call", "{\"connector_id\":\"fz-1.x\","
                    + "\"op_id\":\"fz.item0.list\",\"target\":\"t1\",\"params\":{\"count\":4},\"async\":true}"), 202);
            runHandle = run.path("handle").asText();
            ensureApproval();
            ensureMemory();
            ensureKb();
            JsonNode job = expect(as(admin, "POST", "/api/v1/kb/ingest", "{\"directory\":\"docs\"}"), 202);
            kbJob = job.path("job_id").asText();
            ensureCollection();
            ensureAgentPrincipal();
            ensureGrant();
            ensureServiceGrant();
            ensureEventSource();
            settle(tenant);
            // the write check must see a write: a kb entry is one more kb row for this tenant
            Map<String, TableRows> before = snapshot(tenant);
            expect(as(admin, "POST", "/api/v1/kb", "{\"slug\":\"fz-probe\",\"body\":\"probe\"}"), 201);
            assertThat(changes(before, snapshot(tenant))).as("the snapshot sees writes").contains("kb_entries: tenant +1");
            // ... and an update that changes no count: the same entry with another body
            settle(tenant);
            before = snapshot(tenant);
            expect(as(admin, "POST", "/api/v1/kb", "{\"slug\":\"fz-probe\",\"body\":\"probe, edited\"}"), 200);
            assertThat(changes(before, snapshot(tenant))).as("the snapshot sees an update that changes no count")
                    .contains("kb_entries: tenant = (content changed)");
            expect(as(admin, "DELETE", "/api/v1/kb/fz-probe", null), 200);
        }

        /** Puts back what a successful fuzzed request to {@code route} may have changed. */
        void repair(String route) {
            generation++;
            String family = route.startsWith("/api/v1/") ? route.substring("/api/v1/".length()).split("/")[0] : "";
            switch (family) {
                case "targets" -> ensureTarget();
                case "connectors" -> ensureConnector();
                case "memory" -> ensureMemory();
                case "kb" -> ensureKb();
                case "docs" -> ensureCollection();
                case "approvals" -> ensureApproval();
                case "agent-principals" -> ensureAgentPrincipal();
                case "agent-grants" -> ensureGrant();
                case "service-principals" -> ensureServiceGrant();
                case "event-sources" -> ensureEventSource();
                default -> {
                    // the other families' writes change nothing the fuzz fixtures rely on
                }
            }
        }

        private void ensureTarget() {
            String admin = adminToken();
            var got = as(admin, "GET", "/api/v1/targets/t1", null);
            int port = upstream.getAddress().getPort();
            if (got.status() == 200) {
                JsonNode t = got.json();
                if (t.path("name").asText().equals("t1") && t.path("host").asText().equals("127.0.0.1")
                        && t.path("port").asInt() == port && t.path("product").asText().equals("fz")
                        && t.path("extras").path("scheme").asText().equals("http") && t.path("verify_tls").asBoolean(true)
                        && blank(t.path("tls_ca_pin")) && t.path("secret_ref").asText().equals("tenants/" + tenant + "/t1")
                        && blank(t.path("preferred_impl_id"))) {
                    targetId = t.path("id").asText();
                    return;
                }
                expect(as(admin, "DELETE", "/api/v1/targets/" + t.path("name").asText(), null), 200);
            }
            JsonNode t = expect(as(admin, "POST", "/api/v1/targets", "{\"name\":\"t1\",\"product\":\"fz\",\"host\":"
                    + "\"127.0.0.1\",\"port\":" + port + ",\"extras\":{\"scheme\":\"http\"}}"), 201);
            targetId = t.path("id").asText();
            expect(as(admin, "PUT", "/api/v1/targets/t1/secret", "{\"fields\":{\"username\":\"svc\",\"password\":\"pw\"}}"),
                    200);
        }

        private static boolean blank(JsonNode n) {
            return n.isMissingNode() || n.isNull() || n.asText().isEmpty();
        }

        private void ensureConnector() {
            String admin = adminToken();
            expect(as(admin, "POST", "/api/v1/connectors/fz-1.x/enable", null), 200, 409);
            for (String op : List.of("fz.item0.list", "fz.item1.get", "fz.status.typed")) {
                expect(as(admin, "PATCH", "/api/v1/connectors/fz-1.x/operations/" + op,
                        "{\"is_enabled\":true,\"requires_approval\":false,\"safety_level\":\"safe\"}"), 200);
            }
            expect(as(admin, "PATCH", "/api/v1/connectors/fz-1.x/operations/fz.item2.delete",
                    "{\"is_enabled\":true,\"safety_level\":\"caution\",\"requires_approval\":true}"), 200);
        }

        private void ensureApproval() {
            if (!approval.isEmpty()) {
                var got = as(adminToken(), "GET", "/api/v1/approvals/" + approval, null);
                if (got.status() == 200 && got.json().path("status").asText().equals("pending")) {
                    return;
                }
            }
            JsonNode parked = expect(as(operatorToken(), "POST", "/api/v1/operations/call", "{\"connector_id\":\"fz-1.x\","
                    + "\"op_id\":\"fz.item2.delete\",\"target\":\"t1\",\"params\":{\"name\":\"x\"}}"), 200);
            approval = parked.path("extras").path("approval_request_id").asText();
            assertThat(approval).as(parked.toString()).isNotEmpty();
        }

        private void ensureMemory() {
            if (as(adminToken(), "GET", "/api/v1/memory/tenant/" + memorySlug, null).status() != 200) {
                expect(as(adminToken(), "POST", "/api/v1/memory", "{\"body\":\"Restart fz items with care.\","
                        + "\"scope\":\"tenant\",\"slug\":\"" + memorySlug + "\",\"tags\":[\"fz\"]}"), 201, 200);
            }
        }

        private void ensureKb() {
            if (as(adminToken(), "GET", "/api/v1/kb/" + kbSlug, null).status() != 200) {
                expect(as(adminToken(), "POST", "/api/v1/kb", "{\"slug\":\"" + kbSlug + "\",\"body\":\"How to restart "
                        + "fz items.\"}"), 201, 200);
            }
        }

        private void ensureCollection() {
            String admin = adminToken();
            var got = as(admin, "GET", "/api/v1/docs/collections?limit=500", null);
            JsonNode mine = null;
            for (JsonNode c : got.json().path("collections")) {
                if (c.path("key").asText().equals(collection)) {
                    mine = c;
                }
            }
            if (mine == null) {
                expect(as(admin, "POST", "/api/v1/docs/collections", "{\"key\":\"" + collection + "\",\"backend_type\":"
                        + "\"corpus-http\",\"backend_ref\":{\"url\":\"" + corpusUrl() + "\"}}"), 201);
                return;
            }
            if (!mine.path("state").asText().equals("enabled")) {
                expect(as(admin, "POST", "/api/v1/docs/collections/" + collection + "/enable", null), 200);
            }
            expect(as(admin, "PATCH", "/api/v1/docs/collections/" + collection, "{\"backend_type\":\"corpus-http\","
                    + "\"backend_ref\":{\"url\":\"" + corpusUrl() + "\"}}"), 200);
        }

        private void ensureAgentPrincipal() {
            if (!agentName.isEmpty()) {
                var got = as(adminToken(), "GET", "/api/v1/agent-principals", null);
                for (JsonNode p : got.json()) {
                    if (p.path("name").asText().equals(agentName) && !p.path("revoked").asBoolean()) {
                        return;
                    }
                }
            }
            agentName = "fz-agent-" + generation + "-" + tenant.toString().substring(0, 6);
            expect(as(adminToken(), "POST", "/api/v1/agent-principals", "{\"name\":\"" + agentName + "\"}"), 201);
        }

        private void ensureGrant() {
            grant = liveGrant("/api/v1/agent-grants", grant, "{\"principal\":\"fz-agent-sub\",\"op\":"
                    + "\"fz.item0.*\",\"verdict\":\"auto-execute\"}");
        }

        private void ensureServiceGrant() {
            serviceGrant = liveGrant("/api/v1/service-principals/grants", serviceGrant, "{\"principal\":"
                    + "\"fz-svc\",\"connector_id\":\"fz-1.x\",\"op_id\":\"fz.item0.list\",\"reason\":\"fuzz\","
                    + "\"target_product\":\"fz\"}");
        }

        /** {@code id} while the grant under {@code grants} is still live (not revoked), else a new grant made of {@code body}. */
        private String liveGrant(String grants, String id, String body) {
            if (!id.isEmpty()) {
                var got = as(adminToken(), "GET", grants + "/" + id, null);
                if (got.status() == 200 && !got.json().path("revoked").asBoolean()) {
                    return id;
                }
            }
            return expect(as(adminToken(), "POST", grants, body), 201).path("id").asText();
        }

        private void ensureEventSource() {
            String admin = adminToken();
            if (!eventSlug.isEmpty()) {
                var got = as(admin, "GET", "/api/v1/event-sources/" + eventSlug, null);
                if (got.status() == 200) {
                    if (!got.json().path("status").asText().equals("active")) {
                        expect(as(admin, "POST", "/api/v1/event-sources/" + eventSlug + "/resume", null), 200);
                    }
                    return;
                }
            }
            JsonNode s = expect(as(admin, "POST", "/api/v1/event-sources", "{\"name\":\"fz-" + generation + "\",\"kind\":"
                    + "\"alertrouter\",\"auth_strategy\":\"static-header\",\"secret\":\"" + eventSecret + "\"}"), 201);
            eventSlug = s.path("slug").asText();
            try {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(kernel.url()
                                + "/api/v1/events/ingest/" + eventSlug)).header("X-Svc-Token", eventSecret)
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"status\":\"firing\",\"groupKey\":\"g" + generation
                                + "\",\"commonLabels\":{\"alertname\":\"FzDown\"},\"alerts\":[{\"status\":\"firing\","
                                + "\"fingerprint\":\"f" + generation + "\",\"labels\":{\"alertname\":\"FzDown\"}}]}"))
                        .build(), HttpResponse.BodyHandlers.ofString());
                assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
                eventId = JSON.readTree(r.body()).path("event_id").asText();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }
}
