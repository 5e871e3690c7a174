package dev.backplane.kernel.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.testing.ChildKernels;
import dev.backplane.kernel.testing.ExternalPostgres;
import dev.backplane.kernel.testing.LoopbackHttp;
import dev.backplane.kernel.testing.TempDirs;
import dev.backplane.kernel.testing.TestIssuer;
import dev.backplane.kernel.testing.TestPlugins;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

/**
 * kill -9 of a kernel process at four points, each followed by a restart on the same database and
 * data directory, checking what the product promises after a crash:
 * <ol>
 * <li>(d) an async call holding at the target: its run is failed by the reaper ({@code run_orphaned})
 * once its lease lapses, and never re-dispatched;</li>
 * <li>(a) a synchronous write holding at the target: its audit row is not left {@code started} once the
 * reaper ran ({@code error}/{@code outcome_unknown}), and the target received the write exactly once;</li>
 * <li>(b) an approved call's execution holding at the target: the approval stays {@code approved}, the
 * execution is not re-run, its audit row gets a terminal state from the reaper;</li>
 * <li>(c) a kb directory ingest job mid-run: the job is failed by the stale-job reaper, every entry
 * written before the kill is searchable (entry and index committed together), and the same ingest run
 * again completes and reports the rest.</li>
 * </ol>
 * The targets live in this JVM so they survive the kills: they count what they receive and hold the
 * writes for {@link #HOLD} so that each kill lands while the call is in flight. Nothing here runs a
 * reaper or moves a clock: the kernels run with short reaper settings ({@link #REAP_EVERY_SECONDS},
 * {@link #AUDIT_MARGIN_SECONDS}, {@link #JOB_STALE_SECONDS}; production's are a minute and 5 minutes),
 * and each case waits, bounded, for the restarted kernel's own periodic reapers to do the recovery.
 * Removing the audit-started, async-run or background-job reaper from the kernel's periodic jobs turns
 * this test red. The async run's lease (call timeout + 60 s) is waited out for real: that point is
 * killed first and checked last.
 */
class CrashRecoveryIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String PASSWORD = "crash-pw-" + UUID.randomUUID();
    private static final Duration HOLD = Duration.ofSeconds(5);
    private static final int CALL_TIMEOUT_SECONDS = 2;
    /** The kernels' reaper settings: every 2 s; audit rows started 2 + 3 s ago; jobs untouched for 15 s. */
    private static final int REAP_EVERY_SECONDS = 2;
    private static final int AUDIT_MARGIN_SECONDS = 3;
    private static final int JOB_STALE_SECONDS = 15;
    /** How long a case waits for the kernel's own reaper once its threshold has passed. */
    private static final Duration REAPER_BOUND = Duration.ofSeconds(45);
    private static final int KB_FILES = 300;
    private static final int KB_KILL_AT = 40;
    private static final String CONNECTOR = "crash-1.x";
    private static final String WRITE_OP = "crash.item2.delete";   // made caution, no approval: runs at once
    private static final String PARKED_OP = "crash.item5.delete";  // made caution, keeps requires_approval

    /** Requests the target received, by "METHOD path". */
    private final Map<String, AtomicInteger> received = new ConcurrentHashMap<>();
    private final Map<String, CountDownLatch> arrived = new ConcurrentHashMap<>();
    private final UUID tenant = UUID.randomUUID();
    private final List<String> summary = new ArrayList<>();
    private TestIssuer issuer;
    private HttpClient http;
    private String base;
    private Jdbc jdbc;
    private Path work;
    private Map<String, String> env;
    private int kernels;
    /** The kernel process started last (stopped at the end, whatever failed). */
    private Process current;

    @Test
    void killMinus9AtFourPointsThenRestartKeepsThePromises() throws Exception {
        long t0 = System.nanoTime();
        work = TempDirs.create("svc-crash-recovery");
        Path plugins = Files.createDirectories(work.resolve("plugins"));
        TestPlugins.build(plugins, TestPlugins.connector("crash", "1.x").product("crash").ranges("*").operations(6)
                .httpProbe(false));
        Path ingestRoot = Files.createDirectories(work.resolve("kb-import"));
        // svc kb ingest reads the acting tenant's folder of the root only: <root>/<tenant-id>/crash-kb
        List<String> words = kbCorpus(Files.createDirectories(ingestRoot.resolve(tenant.toString()).resolve("crash-kb")));
        HttpServer target = target();
        SoftAssertions softly = new SoftAssertions();
        try (ExternalPostgres pg = ExternalPostgres.start()) {
            issuer = new TestIssuer();
            int port = ChildKernels.freePort();
            env = ChildKernels.settings(pg, issuer, work, port);
            env.put("SVC_TARGET_SSRF_ALLOWLIST", "127.0.0.0/8");
            env.put("SVC_KB_INGEST_ROOT", ingestRoot.toString());
            env.put("SVC_PLUGIN_CALL_TIMEOUT_SECONDS", String.valueOf(CALL_TIMEOUT_SECONDS));
            // the audit reaper's threshold is the longest call (composite calls included) plus the margin
            env.put("SVC_PLUGIN_COMPOSITE_TIMEOUT_SECONDS", String.valueOf(CALL_TIMEOUT_SECONDS));
            env.put("SVC_REAPERS_INTERVAL_SECONDS", String.valueOf(REAP_EVERY_SECONDS));
            env.put("SVC_REAPERS_AUDIT_STARTED_MARGIN_SECONDS", String.valueOf(AUDIT_MARGIN_SECONDS));
            env.put("SVC_REAPERS_JOB_STALE_SECONDS", String.valueOf(JOB_STALE_SECONDS));
            base = "http://127.0.0.1:" + port;
            http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(Duration.ofSeconds(2)).build();
            HikariConfig pool = new HikariConfig();
            pool.setJdbcUrl(pg.jdbcUrl());
            pool.setUsername(ExternalPostgres.USER);
            pool.setPassword(ExternalPostgres.PASSWORD);
            pool.setMaximumPoolSize(2);
            try (HikariDataSource ds = new HikariDataSource(pool)) {
                Process kernel = start();
                jdbc = new Jdbc(ds);
                setUp(target.getAddress().getPort());

                AsyncPoint d = asyncCallKilled(kernel);          // kernel 1 dies; its run is checked last
                kernel = start();
                kernel = syncWriteKilled(kernel, softly);          // kernel 2 dies
                kernel = approvalExecutionKilled(kernel, softly);  // kernel 3 dies
                kernel = kbIngestKilled(kernel, words, softly);    // kernel 4 dies
                asyncRunReaped(d, softly);                         // on kernel 5

                softly.assertThat(received).as("every held write reached the target exactly once, none re-run")
                        .allSatisfy((request, n) -> assertThat(n.get()).as(request).isEqualTo(1));
            } finally {
                if (current != null) {
                    current.destroy();
                    if (!current.waitFor(20, TimeUnit.SECONDS)) {
                        current.destroyForcibly();
                    }
                }
                issuer.close();
            }
        } finally {
            target.stop(0);
        }
        summary.forEach(System.out::println);
        System.out.printf("CrashRecoveryIT: %d kernel processes, %d s; kernel logs in %s (removed if all passed)%n", kernels,
                Duration.ofNanos(System.nanoTime() - t0).toSeconds(), work);
        softly.assertAll();
        try (var walk = Files.walk(work)) { // kept when something failed: the kernel logs are in it
            walk.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        }
    }

    // ---------------------------------------------------------------------------------------------
    // (d) async call

    private record AsyncPoint(String handle, String request) {
    }

    private AsyncPoint asyncCallKilled(Process kernel) throws Exception {
        String request = "DELETE /items/hold-async";
        var started = send("POST", "/api/v1/operations/call", operator(), "{\"connector_id\": \"" + CONNECTOR
                + "\", \"op_id\": \"" + WRITE_OP + "\", \"target\": \"crash\", \"params\": {\"name\": \"hold-async\"}, "
                + "\"work_ref\": \"CRASH-D\", \"async\": true}");
        assertThat(started.status()).as(started.body()).isEqualTo(202);
        String handle = started.json().path("handle").asText();
        awaitArrival(request, null);
        kill(kernel);
        assertThat(runStatus(handle)).as("the run was in flight at the kill").isEqualTo("running");
        return new AsyncPoint(handle, request);
    }

    private void asyncRunReaped(AsyncPoint d, SoftAssertions softly) throws Exception {
        // the lease was set at the start (call timeout + 60 s) and renewed by the dead kernel only; wait it out
        Timestamp lease = jdbc.queryOne("SELECT lease_until FROM dispatch_runs WHERE id = ?", rs -> rs.getTimestamp(1),
                UUID.fromString(d.handle())).orElseThrow();
        String before = runStatus(d.handle());
        while (jdbc.queryOne("SELECT lease_until < now() FROM dispatch_runs WHERE id = ?", rs -> rs.getBoolean(1),
                UUID.fromString(d.handle())).orElseThrow().equals(false)) {
            Thread.sleep(250);
        }
        // the kernel's own async-run reaper (every REAP_EVERY_SECONDS) fails it; nothing here reaps
        long lapsed = System.nanoTime();
        awaitReaper(softly, "(d) the kernel's async-run reaper fails the orphaned run", "async-run-reaper",
                () -> !runStatus(d.handle()).equals("running"));
        long reapedAfter = Duration.ofNanos(System.nanoTime() - lapsed).toMillis();
        var run = send("GET", "/api/v1/operations/runs/" + d.handle(), operator(), null);
        softly.assertThat(run.status()).as(run.body()).isEqualTo(200);
        String status = run.json().path("status").asText();
        String code = run.json().path("result").path("extras").path("error_code").asText();
        Timestamp finished = jdbc.query("SELECT finished_at FROM dispatch_runs WHERE id = ?", rs -> rs.getTimestamp(1),
                UUID.fromString(d.handle())).getFirst();
        softly.assertThat(finished).as("(d) the run waits for its lease to lapse (a live kernel's run is not reaped): "
                + "failed at, against its lease").isNotNull().isAfterOrEqualTo(lease);
        softly.assertThat(status).as("(d) orphaned run failed by the reaper").isEqualTo("failed");
        softly.assertThat(code).as("(d) orphaned run's error code").isEqualTo("run_orphaned");
        List<Map<String, Object>> audit = auditRows("CRASH-D").stream()
                .filter(r -> !"svc.runs.orphaned".equals(r.get("op_id"))).toList();
        softly.assertThat(audit).as("(d) the run's dispatch audit row").hasSize(1);
        softly.assertThat(audit).as("(d) the run's dispatch row is terminal after the audit reaper")
                .allSatisfy(r -> assertThat(r.get("result_status") + "/" + r.get("error_code"))
                        .isEqualTo("error/outcome_unknown"));
        softly.assertThat(jdbc.queryOne("SELECT count(*) FROM audit_rows WHERE op_id = 'svc.runs.orphaned' "
                + "AND extras->>'run_handle' = ?", rs -> rs.getLong(1), d.handle()).orElseThrow())
                .as("(d) reaping the orphaned run is audited (SPEC: audited; never re-dispatched)").isEqualTo(1L);
        int hits = count(d.request());
        softly.assertThat(hits).as("(d) the async write reached the target once and was never re-dispatched")
                .isEqualTo(1);
        summary.add("CrashRecoveryIT (d) async call: killed with the call held at the target; lease until " + lease
                .toInstant() + ", run " + status + "/" + code + " at " + (finished == null ? "-" : finished.toInstant())
                + " by the kernel's own async-run reaper (" + before + " when this check began, " + reapedAfter
                + " ms later); dispatch audit row "
                + audit.stream().map(r -> r.get("result_status") + "/" + r.get("error_code")).toList()
                + "; target received the write " + hits + "x");
    }

    // ---------------------------------------------------------------------------------------------
    // (a) synchronous write

    private Process syncWriteKilled(Process kernel, SoftAssertions softly) throws Exception {
        awaitReady();
        String request = "DELETE /items/hold-sync";
        CompletableFuture<HttpResponse<String>> call = sendAsync("POST", "/api/v1/operations/call", operator(),
                "{\"connector_id\": \"" + CONNECTOR + "\", \"op_id\": \"" + WRITE_OP + "\", \"target\": \"crash\", "
                        + "\"params\": {\"name\": \"hold-sync\"}, \"work_ref\": \"CRASH-A\"}");
        killWhileHeld(kernel, request, call, softly, "(a) the caller got no answer (the kernel died mid-call)");
        List<Map<String, Object>> before = auditRows("CRASH-A");  // no kernel is running: nothing can reap yet
        assertThat(before).as("(a) one audit row, begun before the target was called").hasSize(1);
        assertThat(before.getFirst().get("result_status")).as("(a) the kill landed before the outcome was recorded")
                .isEqualTo("started");
        Process next = restart();
        long restarted = System.nanoTime();
        awaitReaper(softly, "(a) the restarted kernel's audit-started reaper closes the row", "audit-started-reaper",
                () -> !"started".equals(auditRows("CRASH-A").getFirst().get("result_status")));
        long reapedAfter = Duration.ofNanos(System.nanoTime() - restarted).toMillis();
        Thread.sleep(1500); // nothing may re-run the write after the restart
        List<Map<String, Object>> after = auditRows("CRASH-A");
        String state = after.getFirst().get("result_status") + "/" + after.getFirst().get("error_code");
        softly.assertThat(state).as("(a) the audit row after the reaper").isEqualTo("error/outcome_unknown");
        int hits = count(request);
        softly.assertThat(hits).as("(a) the target received the write exactly once").isEqualTo(1);
        summary.add("CrashRecoveryIT (a) sync write: killed with the call held at the target; audit row started -> "
                + state + " by the kernel's own audit-started reaper (" + reapedAfter + " ms after the restart); target "
                + "received the write " + hits + "x");
        return next;
    }

    // ---------------------------------------------------------------------------------------------
    // (b) an approval's execution

    private Process approvalExecutionKilled(Process kernel, SoftAssertions softly) throws Exception {
        String request = "DELETE /items/hold-approval";
        var parked = send("POST", "/api/v1/operations/call", admin("admin-1"), "{\"connector_id\": \"" + CONNECTOR
                + "\", \"op_id\": \"" + PARKED_OP + "\", \"target\": \"crash\", \"params\": {\"name\": \"hold-approval\"}, "
                + "\"work_ref\": \"CRASH-B\"}");
        assertThat(parked.status()).as(parked.body()).isEqualTo(200);
        assertThat(parked.json().path("status").asText()).as(parked.body()).isEqualTo("awaiting_approval");
        String id = parked.json().path("extras").path("approval_request_id").asText();
        CompletableFuture<HttpResponse<String>> approve = sendAsync("POST", "/api/v1/approvals/" + id + "/approve",
                admin("admin-2"), "{\"reason\": \"crash test\"}");
        killWhileHeld(kernel, request, approve, softly, "(b) the approver got no answer (the kernel died mid-execution)");
        // read before the restart, while no kernel can reap: the execution's row is still started
        List<Map<String, Object>> rows = auditRows("CRASH-B");
        List<Map<String, Object>> executions = rows.stream().filter(r -> PARKED_OP.equals(r.get("op_id"))
                && !"awaiting_approval".equals(r.get("result_status"))).toList();
        softly.assertThat(rows).as("(b) audit at the kill: parked, approve transition, execution")
                .extracting(r -> r.get("op_id") + ":" + r.get("result_status"))
                .containsExactly(PARKED_OP + ":awaiting_approval", "svc.approval.approve:ok", PARKED_OP + ":started");
        Process next = restart();
        long restarted = System.nanoTime();
        JsonNode approval = send("GET", "/api/v1/approvals/" + id, operator(), null).json();
        String status = approval.path("status").asText();
        softly.assertThat(status).as("(b) the approval after the restart").isEqualTo("approved");
        softly.assertThat(approval.path("decided_by").asText()).as("(b) decided by").isEqualTo("admin-2");
        var again = send("POST", "/api/v1/approvals/" + id + "/approve", admin("admin-2"), "{}");
        softly.assertThat(again.status()).as("(b) approving again: " + again.body()).isEqualTo(409);
        softly.assertThat(again.json().path("error").asText()).isEqualTo("approval_not_pending");
        awaitReaper(softly, "(b) the restarted kernel's audit-started reaper closes the execution's row",
                "audit-started-reaper",
                () -> auditRows("CRASH-B").stream().noneMatch(r -> "started".equals(r.get("result_status"))));
        long reapedAfter = Duration.ofNanos(System.nanoTime() - restarted).toMillis();
        Thread.sleep(1500); // nothing may re-run the execution after the restart
        List<Map<String, Object>> reapedRows = auditRows("CRASH-B").stream().filter(r -> PARKED_OP.equals(r.get("op_id"))
                && !"awaiting_approval".equals(r.get("result_status"))).toList();
        softly.assertThat(reapedRows).as("(b) one execution row").hasSize(1);
        String state = reapedRows.isEmpty() ? "none" : reapedRows.getFirst().get("result_status") + "/"
                + reapedRows.getFirst().get("error_code");
        softly.assertThat(state).as("(b) the execution's audit row after the reaper").isEqualTo("error/outcome_unknown");
        int hits = count(request);
        softly.assertThat(hits).as("(b) the approved call reached the target once, not re-run").isEqualTo(1);
        // how the approval leads to its execution's row after a crash (reported; the product links it only
        // when the execution returns)
        JsonNode shown = send("GET", "/api/v1/approvals/" + id, operator(), null).json();
        String link = shown.path("execution_audit_id").isNull() || shown.path("execution_audit_id").isMissingNode()
                ? "approval.execution_audit_id null" : "approval.execution_audit_id " + shown.path("execution_audit_id").asText();
        String rowLink = executions.isEmpty() ? "" : ", execution row approval_request_id "
                + executions.getFirst().get("approval_request_id");
        softly.assertThat(executions).as("(b) the execution's row names its approval from the start, so the two are "
                + "linked even when the kernel dies mid-call").allSatisfy(r -> assertThat(String.valueOf(
                        r.get("approval_request_id"))).isEqualTo(id));
        summary.add("CrashRecoveryIT (b) approval execution: killed with the approved call held at the target; approval "
                + status + " after restart, approve again -> " + again.status() + "; execution audit row started -> "
                + state + " by the kernel's own audit-started reaper (" + reapedAfter + " ms after the restart); target "
                + "received the call " + hits + "x; " + link + rowLink);
        return next;
    }

    // ---------------------------------------------------------------------------------------------
    // (c) kb ingest job

    private Process kbIngestKilled(Process kernel, List<String> words, SoftAssertions softly) throws Exception {
        var started = send("POST", "/api/v1/kb/ingest", admin("admin-1"), "{\"directory\": \"crash-kb\"}");
        assertThat(started.status()).as(started.body()).isEqualTo(202);
        UUID job = UUID.fromString(started.json().path("job_id").asText());
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (entries() < KB_KILL_AT) {
            assertThat(System.nanoTime()).as("(c) the ingest makes progress").isLessThan(deadline);
            Thread.sleep(20);
        }
        kill(kernel);
        int atKill = entries();
        String jobAtKill = jobStatus(job);
        Timestamp touchedAtKill = jobTouched(job);
        String progressAtKill = jobProgress(job);
        assertThat(jobAtKill).as("(c) the kill landed mid-ingest").isEqualTo("running");
        assertThat(atKill).as("(c) the kill landed mid-ingest").isLessThan(KB_FILES);
        Process next = restart();

        // the restarted kernel's stale-job reaper fails the job JOB_STALE_SECONDS after its last update
        awaitReaper(softly, "(c) the restarted kernel's background-job reaper fails the dead job",
                "background-job-reaper", () -> !jobStatus(job).equals("running"));
        Timestamp finished = jdbc.query("SELECT finished_at FROM background_jobs WHERE id = ?", rs -> rs.getTimestamp(1),
                job).getFirst();
        long staleFor = finished == null ? -1
                : Duration.between(touchedAtKill.toInstant(), finished.toInstant()).toMillis();
        JsonNode failed = send("GET", "/api/v1/kb/ingest-jobs/" + job, admin("admin-1"), null).json();
        softly.assertThat(staleFor).as("(c) the job is failed by the stale-job reaper, not before its threshold (ms "
                + "between its last update and its failure)").isGreaterThanOrEqualTo(JOB_STALE_SECONDS * 1000L);
        softly.assertThat(failed.path("status").asText()).as("(c) the job after the stale-job reaper: " + failed)
                .isEqualTo("failed");
        softly.assertThat(failed.path("terminal").asBoolean()).as("(c) terminal").isTrue();
        softly.assertThat(failed.path("error").asText()).as("(c) the failure says to run it again")
                .contains("run the ingest again");

        // every entry written before the kill: its index rows committed with it, and it is found
        int nowEntries = entries();
        softly.assertThat(nowEntries).as("(c) nothing was written after the kill (the job was not resumed)")
                .isEqualTo(atKill);
        softly.assertThat(jobProgress(job)).as("(c) the restarted kernel did not resume the job")
                .isEqualTo(progressAtKill);
        long unindexed = jdbc.queryOne("""
                SELECT count(*) FROM kb_entries e WHERE e.tenant_id = ?
                   AND (NOT EXISTS (SELECT 1 FROM retrieval_chunks c WHERE c.surface = 'kb' AND c.entry_id = e.id)
                     OR NOT EXISTS (SELECT 1 FROM retrieval_docs d WHERE d.surface = 'kb' AND d.entry_id = e.id))""",
                rs -> rs.getLong(1), tenant).orElseThrow();
        softly.assertThat(unindexed).as("(c) kb entries without their index rows").isZero();
        List<String> slugs = jdbc.query("SELECT slug FROM kb_entries WHERE tenant_id = ? ORDER BY slug",
                rs -> rs.getString(1), tenant);
        List<String> notFound = new ArrayList<>();
        for (String slug : slugs) {
            int n = Integer.parseInt(slug.substring("note-".length()));
            var hits = send("POST", "/api/v1/kb/search", operator(), "{\"query\": \"" + words.get(n) + "\", \"limit\": 3}");
            if (hits.status() != 200 || !slug.equals(hits.json().path("hits").path(0).path("slug").asText())) {
                notFound.add(slug + " (" + hits.status() + " " + hits.json().path("hits").path(0).path("slug") + ")");
            }
        }
        softly.assertThat(notFound).as("(c) entries written before the kill that search does not find").isEmpty();

        // the same ingest again finishes the rest
        var rerun = send("POST", "/api/v1/kb/ingest", admin("admin-1"), "{\"directory\": \"crash-kb\"}");
        assertThat(rerun.status()).as(rerun.body()).isEqualTo(202);
        UUID second = UUID.fromString(rerun.json().path("job_id").asText());
        JsonNode done;
        deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (true) {
            done = send("GET", "/api/v1/kb/ingest-jobs/" + second, admin("admin-1"), null).json();
            if (done.path("terminal").asBoolean()) {
                break;
            }
            assertThat(System.nanoTime()).as("(c) the second ingest finishes").isLessThan(deadline);
            Thread.sleep(250);
        }
        JsonNode progress = done.path("progress");
        softly.assertThat(done.path("status").asText()).as("(c) the second ingest: " + progress).isEqualTo("succeeded");
        softly.assertThat(progress.path("total").asInt()).isEqualTo(KB_FILES);
        softly.assertThat(progress.path("created").asInt()).as("(c) the rest is created").isEqualTo(KB_FILES - atKill);
        softly.assertThat(progress.path("unchanged").asInt()).as("(c) what was written before the kill is unchanged")
                .isEqualTo(atKill);
        softly.assertThat(progress.path("updated").asInt()).isZero();
        softly.assertThat(progress.path("errors").asInt()).isZero();
        softly.assertThat(entries()).as("(c) every file is an entry in the end").isEqualTo(KB_FILES);
        summary.add("CrashRecoveryIT (c) kb ingest: killed after " + atKill + " of " + KB_FILES + " entries; job "
                + jobAtKill + " at the kill, " + failed.path("status").asText() + " by the kernel's own background-job "
                + "reaper " + staleFor + " ms after its last update (error \"" + failed.path("error").asText() + "\"); "
                + (slugs.size() - notFound.size()) + "/" + slugs.size() + " pre-kill entries found by search, " + unindexed
                + " without index rows; re-run "
                + done.path("status").asText() + " " + progress);
        return next;
    }

    // ---------------------------------------------------------------------------------------------
    // fixtures

    /** A loopback target: counts every write and holds writes to hold-* names for {@link #HOLD}. */
    private HttpServer target() throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        String auth = LoopbackHttp.basic("svc", PASSWORD);
        server.createContext("/", x -> {
            String request = x.getRequestMethod() + " " + x.getRequestURI().getPath();
            boolean ok = auth.equals(x.getRequestHeaders().getFirst("Authorization"));
            if (ok && x.getRequestURI().getPath().startsWith("/items/hold-")) {
                received.computeIfAbsent(request, k -> new AtomicInteger()).incrementAndGet();
                arrived.computeIfAbsent(request, k -> new CountDownLatch(1)).countDown();
                try {
                    Thread.sleep(HOLD);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            byte[] body = (ok ? "done" : "no").getBytes(StandardCharsets.UTF_8);
            try {
                x.sendResponseHeaders(ok ? 200 : 401, body.length);
                x.getResponseBody().write(body);
            } catch (IOException gone) {
                // the kernel that asked was killed
            } finally {
                x.close();
            }
        });
        server.start();
        return server;
    }

    /** KB_FILES small notes, each with one made-up word only it contains; returns the words by note number. */
    private static List<String> kbCorpus(Path dir) throws IOException {
        List<String> words = new ArrayList<>();
        for (int i = 0; i < KB_FILES; i++) {
            String word = "zorv" + letters(i);
            words.add(word);
            Files.writeString(dir.resolve("note-%03d.md".formatted(i)), """
                    ---
                    kind: crash-note
                    ---
                    # Recovery note %d
                    The %s procedure: drain the node, restart the service, read the logs and confirm the recovery.
                    """.formatted(i, word));
        }
        return words;
    }

    private static String letters(int n) {
        StringBuilder b = new StringBuilder();
        for (int k = 0; k < 3; k++) {
            b.append((char) ('a' + n % 26));
            n /= 26;
        }
        return b.toString();
    }

    private void setUp(int targetPort) throws Exception {
        awaitReady();
        String admin = admin("admin-1");
        var created = send("POST", "/api/v1/targets", admin, "{\"name\": \"crash\", \"product\": \"crash\", \"host\": "
                + "\"127.0.0.1\", \"port\": " + targetPort + ", \"extras\": {\"scheme\": \"http\"}}");
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        var secret = send("PUT", "/api/v1/targets/crash/secret", admin, "{\"fields\": {\"username\": \"svc\", "
                + "\"password\": \"" + PASSWORD + "\"}}");
        assertThat(secret.status()).as(secret.body()).isEqualTo(200);
        for (String action : List.of("enable-reads", "enable")) {
            var r = send("POST", "/api/v1/connectors/" + CONNECTOR + "/" + action, admin, null);
            assertThat(r.status()).as(action + ": " + r.body()).isEqualTo(200);
        }
        var write = send("PATCH", "/api/v1/connectors/" + CONNECTOR + "/operations/" + WRITE_OP, admin,
                "{\"is_enabled\": true, \"safety_level\": \"caution\", \"requires_approval\": false}");
        assertThat(write.status()).as(write.body()).isEqualTo(200);
        var parked = send("PATCH", "/api/v1/connectors/" + CONNECTOR + "/operations/" + PARKED_OP, admin,
                "{\"is_enabled\": true, \"safety_level\": \"caution\", \"requires_approval\": true}");
        assertThat(parked.status()).as(parked.body()).isEqualTo(200);
    }

    private String admin(String sub) {
        return issuer.token(sub, tenant, "tenant_admin");
    }

    private String operator() {
        return issuer.token("operator", tenant, "operator");
    }

    /**
     * Kills {@code kernel} once {@code request} is held at the target and expects {@code pending} (the HTTP call
     * that sent it) to get no answer.
     */
    private void killWhileHeld(Process kernel, String request, CompletableFuture<HttpResponse<String>> pending,
                               SoftAssertions softly, String noAnswer) throws Exception {
        awaitArrival(request, pending);
        kill(kernel);
        softly.assertThat(pending).as(noAnswer).failsWithin(Duration.ofSeconds(10));
    }

    /** The next kernel, ready. */
    private Process restart() throws Exception {
        Process next = start();
        awaitReady();
        return next;
    }

    /**
     * Waits until {@code done} holds, at most the reaper's threshold plus {@link #REAPER_BOUND}: only the kernel's
     * own periodic {@code job} can make it hold (this test runs no reaper). The failure shows the job's row in
     * db-scheduler's table (a job a killed kernel was running stays picked until db-scheduler revives it).
     */
    private void awaitReaper(SoftAssertions softly, String what, String job, java.util.function.BooleanSupplier done)
            throws Exception {
        long deadline = System.nanoTime() + REAPER_BOUND.plusSeconds(JOB_STALE_SECONDS).toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                softly.fail(what + ": not done within " + REAPER_BOUND.plusSeconds(JOB_STALE_SECONDS)
                        .toSeconds() + " s; scheduled_tasks: " + jdbc.query("SELECT task_name, execution_time, picked, "
                        + "picked_by, last_heartbeat FROM scheduled_tasks WHERE task_name = ?", rs -> rs.getString(1)
                        + " next " + rs.getTimestamp(2) + " picked " + rs.getBoolean(3) + " by " + rs.getString(4)
                        + " heartbeat " + rs.getTimestamp(5), job) + " (kernel log in " + work + ")");
                return;
            }
            Thread.sleep(200);
        }
    }

    private void awaitArrival(String request, CompletableFuture<HttpResponse<String>> call) throws Exception {
        CountDownLatch latch = arrived.computeIfAbsent(request, k -> new CountDownLatch(1));
        if (!latch.await(30, TimeUnit.SECONDS)) {
            String answer = call != null && call.isDone() ? call.get().statusCode() + " " + call.get().body() : "none";
            throw new AssertionError(request + " never reached the target; the call answered: " + answer);
        }
    }

    private int count(String request) {
        AtomicInteger n = received.get(request);
        return n == null ? 0 : n.get();
    }

    private int entries() {
        return jdbc.queryOne("SELECT count(*) FROM kb_entries WHERE tenant_id = ?", rs -> rs.getInt(1), tenant)
                .orElseThrow();
    }

    private String runStatus(String handle) {
        return jdbc.queryOne("SELECT status FROM dispatch_runs WHERE id = ?", rs -> rs.getString(1),
                UUID.fromString(handle)).orElseThrow();
    }

    private String jobStatus(UUID job) {
        return jdbc.queryOne("SELECT status FROM background_jobs WHERE id = ?", rs -> rs.getString(1), job).orElseThrow();
    }

    private String jobProgress(UUID job) {
        return jdbc.queryOne("SELECT progress::text FROM background_jobs WHERE id = ?", rs -> rs.getString(1), job)
                .orElseThrow();
    }

    private Timestamp jobTouched(UUID job) {
        return jdbc.queryOne("SELECT updated_at FROM background_jobs WHERE id = ?", rs -> rs.getTimestamp(1), job)
                .orElseThrow();
    }

    private List<Map<String, Object>> auditRows(String workRef) {
        return jdbc.query("SELECT id, op_id, principal, result_status, error_code, approval_request_id FROM audit_rows "
                + "WHERE tenant_id = ? AND work_ref = ? ORDER BY occurred_at, op_id", rs -> {
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("id", rs.getObject("id"));
                    m.put("op_id", rs.getString("op_id"));
                    m.put("principal", rs.getString("principal"));
                    m.put("result_status", rs.getString("result_status"));
                    m.put("error_code", rs.getString("error_code"));
                    m.put("approval_request_id", rs.getObject("approval_request_id"));
                    return m;
                }, tenant, workRef);
    }

    // ---------------------------------------------------------------------------------------------
    // processes and HTTP

    private Process start() throws IOException {
        kernels++;
        String java = ProcessHandle.current().info().command().orElse("java");
        // temporary files in the test's directory: a kernel killed with SIGKILL never cleans up its own
        ProcessBuilder pb = new ProcessBuilder(java, "-Xmx1g",
                "-Djava.io.tmpdir=" + Files.createDirectories(work.resolve("tmp")),
                "-cp", System.getProperty("java.class.path"),
                "dev.backplane.kernel.app.Main").redirectErrorStream(true)
                .redirectOutput(work.resolve("kernel-" + kernels + ".log").toFile());
        pb.environment().putAll(env);
        current = pb.start();
        return current;
    }

    /** SIGKILL: no shutdown hook, no finally block, no flush. */
    private static void kill(Process kernel) throws InterruptedException {
        kernel.destroyForcibly();
        kernel.waitFor();
        Thread.sleep(500); // a COMMIT already on the wire when the process died still lands; let it
    }

    private void awaitReady() throws InterruptedException {
        ChildKernels.awaitReady(http, base, "kernel " + kernels + " ready within 60 s (log in " + work + ")");
    }

    private record Response(int status, String body) {
        JsonNode json() {
            try {
                return JSON.readTree(body.isEmpty() ? "null" : body);
            } catch (IOException e) {
                throw new AssertionError("not JSON: " + body, e);
            }
        }
    }

    private HttpRequest request(String method, String path, String token, String body) {
        return HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(60))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8)).build();
    }

    private Response send(String method, String path, String token, String body) throws Exception {
        HttpResponse<String> r = http.send(request(method, path, token, body), HttpResponse.BodyHandlers.ofString());
        return new Response(r.statusCode(), r.body());
    }

    private CompletableFuture<HttpResponse<String>> sendAsync(String method, String path, String token, String body) {
        return http.sendAsync(request(method, path, token, body), HttpResponse.BodyHandlers.ofString());
    }
}
