package dev.backplane.kernel.sensors;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import dev.backplane.kernel.testing.BeforeKernel;
import dev.backplane.kernel.testing.CliRunner;
import dev.backplane.kernel.testing.KernelSetup;
import dev.backplane.kernel.testing.LoopbackHttp;
import dev.backplane.kernel.testing.LoopbackTarget;
import dev.backplane.kernel.testing.PerTestTenant;
import dev.backplane.kernel.testing.TempDirs;
import dev.backplane.kernel.testing.TestKernel;
import dev.backplane.kernel.testing.TestPlugins;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Sensors end to end on a real kernel and PostgreSQL against a loopback HTTP target: a sensor runs on
 * db-scheduler through the dispatch pipeline as its own service principal (audited, under the exact
 * grant made with it), its assertion turns the target's answer into states, results page and filter,
 * pause/resume/update/delete behave, a write operation and every bad input are refused with nothing
 * written, roles hold, and the CLI drives all of it.
 */
public class SensorsIT extends PerTestTenant {

    private static LoopbackTarget target;
    /** What the target answers for {@code GET /items/<name>}: the sensors' health bodies. */
    private static final Map<String, String> BODIES = new ConcurrentHashMap<>();

    static final String ASSERTION = """
            {"rules": [{"name": "down", "state": "critical", "when": {"path": "/body", "contains": "DOWN"}},
                       {"name": "slow", "state": "degraded", "when": {"path": "/body", "contains": "SLOW"}},
                       {"name": "maintenance", "state": "skip", "when": {"path": "/body", "eq": "MAINT"}}],
             "default": "ok"}""";

    @BeforeKernel
    static void start(KernelSetup setup) {
        target = LoopbackTarget.itemBodies(setup, BODIES);
        setup.plugin(TestPlugins.connector("sn", "1.x").product("sn").ranges("*").operations(3).httpProbe(true));
    }

    @BeforeEach
    void targetReady() {
        target.register(kernel, admin, "web", "sn");
        kernel.enableConnector(admin, "sn-1.x");
    }

    static JsonNode json(String text) {
        try {
            return dev.backplane.kernel.util.JsonMapping.mapper().readTree(text);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    public static JsonNode ok(TestKernel.Response r, int status) {
        assertThat(r.status()).as(r.body()).isEqualTo(status);
        return r.json();
    }

    public static void error(TestKernel.Response r, int status, String code) {
        assertThat(r.status()).as(r.body()).isEqualTo(status);
        assertThat(r.json().path("error").asText()).as(r.body()).isEqualTo(code);
    }

    public static <T> T poll(Supplier<T> read, Predicate<T> done, Duration timeout, String what) {
        Instant deadline = Instant.now().plus(timeout);
        T last = read.get();
        while (!done.test(last)) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("timed out waiting for " + what + "; last: " + last);
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
            last = read.get();
        }
        return last;
    }

    public static Map<String, Object> sensorBody(String name, String item, int interval) {
        Map<String, Object> b = new HashMap<>();
        b.put("name", name);
        b.put("connector_id", "sn-1.x");
        b.put("op_id", "sn.item1.get");
        b.put("target", "web");
        b.put("params", Map.of("name", item));
        b.put("interval_seconds", interval);
        b.put("assertion", json(ASSERTION));
        return b;
    }

    /** The sensor's results once one satisfies {@code until}. */
    private JsonNode resultsUntil(String id, Predicate<JsonNode> until, String what) {
        return poll(() -> ok(kernel.get("/api/v1/sensors/" + id + "/results?limit=500", operator), 200),
                page -> { for (JsonNode r : page.path("results")) { if (until.test(r)) { return true; } } return false; },
                Duration.ofSeconds(60), what);
    }

    private int sensorRows() {
        return kernel.jdbc().queryOne("SELECT count(*) FROM sensors WHERE tenant_id = ?", rs -> rs.getInt(1), tenant)
                .orElseThrow();
    }

    @Test
    void aSensorRunsAsItsServicePrincipalAndItsAssertionJudgesEachAnswer() {
        String item = "health-" + tenant;
        BODIES.put(item, "all fine");
        JsonNode created = ok(kernel.post("/api/v1/sensors", admin, sensorBody("web-health", item, 5)), 201);
        String id = created.path("id").asText();
        assertThat(created.path("status").asText()).isEqualTo("active");
        assertThat(created.path("cadence_kind").asText()).isEqualTo("interval");
        assertThat(created.path("interval_seconds").asInt()).isEqualTo(5);
        assertThat(created.path("last_state").asText()).isEqualTo("unknown");
        assertThat(created.path("principal").asText()).isEqualTo("svc-sensor:" + id);
        // the grant made with it covers exactly this operation on this target
        JsonNode grant = ok(kernel.get("/api/v1/service-principals/grants/" + created.path("grant_id").asText(), operator), 200);
        assertThat(grant.path("principal").asText()).isEqualTo("svc-sensor:" + id);
        assertThat(grant.path("connector_id").asText()).isEqualTo("sn-1.x");
        assertThat(grant.path("op_id").asText()).isEqualTo("sn.item1.get");
        assertThat(grant.path("target").asText()).isEqualTo(created.path("target_id").asText());

        JsonNode okResult = resultsUntil(id, r -> r.path("state").asText().equals("ok"), "a first ok result")
                .path("results").get(0);
        assertThat(okResult.path("call_status").asText()).isEqualTo("ok");
        assertThat(okResult.path("detail").asText()).contains("no rule matched");
        // its call went through the pipeline as the sensor's service principal, audited as a read
        JsonNode audit = ok(kernel.get("/api/v1/audit/" + okResult.path("audit_id").asText(), admin), 200);
        assertThat(audit.path("principal").asText()).isEqualTo("svc-sensor:" + id);
        assertThat(audit.path("principal_kind").asText()).isEqualTo("service");
        assertThat(audit.path("op_class").asText()).isEqualTo("read");
        assertThat(audit.path("op_id").asText()).isEqualTo("sn.item1.get");
        assertThat(audit.path("result_status").asText()).isEqualTo("ok");

        BODIES.put(item, "DOWN since 10:02");
        resultsUntil(id, r -> r.path("state").asText().equals("critical"), "a critical result");
        JsonNode shown = poll(() -> ok(kernel.get("/api/v1/sensors/" + id, operator), 200),
                s -> s.path("last_state").asText().equals("critical"), Duration.ofSeconds(30), "last_state critical");
        assertThat(shown.path("last_evaluated_at").isTextual()).isTrue();
        BODIES.put(item, "SLOW answers");
        resultsUntil(id, r -> r.path("state").asText().equals("degraded"), "a degraded result");
        BODIES.put(item, "MAINT");
        resultsUntil(id, r -> r.path("state").asText().equals("skip"), "a skip result");

        // filters and paging: newest first, state filter, cursor, time window
        JsonNode critical = ok(kernel.get("/api/v1/sensors/" + id + "/results?state=critical", operator), 200);
        assertThat(critical.path("results")).isNotEmpty().allSatisfy(r -> assertThat(r.path("state").asText())
                .isEqualTo("critical"));
        assertThat(critical.path("results").get(0).path("detail").asText()).isEqualTo("down matched");
        JsonNode first = ok(kernel.get("/api/v1/sensors/" + id + "/results?limit=1", operator), 200);
        assertThat(first.path("results")).hasSize(1);
        String cursor = first.path("next_cursor").asText();
        JsonNode second = ok(kernel.get("/api/v1/sensors/" + id + "/results?limit=1&cursor=" + cursor, operator), 200);
        assertThat(second.path("results").get(0).path("id").asLong()).isLessThan(first.path("results").get(0).path("id")
                .asLong());
        assertThat(ok(kernel.get("/api/v1/sensors/" + id + "/results?to=2000-01-01T00:00:00Z", operator), 200)
                .path("results")).isEmpty();
        assertThat(ok(kernel.get("/api/v1/sensors/" + id + "/results?from=2000-01-01T00:00:00%2B02:00", operator), 200)
                .path("results")).isNotEmpty();

        // delete: the sensor, its results and its grant go
        ok(kernel.delete("/api/v1/sensors/" + id, admin), 200);
        error(kernel.get("/api/v1/sensors/" + id, operator), 404, "sensor_not_found");
        error(kernel.get("/api/v1/sensors/" + id + "/results", operator), 404, "sensor_not_found");
        assertThat(ok(kernel.get("/api/v1/service-principals/grants/" + created.path("grant_id").asText(), operator), 200)
                .path("revoked").asBoolean()).isTrue();
        assertThat(kernel.jdbc().queryOne("SELECT count(*) FROM sensor_results WHERE sensor_id = ?::uuid",
                rs -> rs.getInt(1), id).orElseThrow()).isZero();
    }

    @Test
    void aFailingCallIsOnErrorAndARevokedGrantIsUnknown() {
        Map<String, Object> body = sensorBody("unreachable", "x", 5);
        body.put("assertion", json("{\"rules\": [{\"state\": \"ok\", \"when\": {\"path\": \"\", \"exists\": true}}], "
                + "\"on_error\": \"degraded\"}"));
        kernel.registerTarget(admin, Map.of("name", "gone", "product", "sn", "host", "127.0.0.1", "port", 9,
                "extras", Map.of("scheme", "http")));
        kernel.stageSecret(admin, "gone", Map.of("username", "u", "password", "p-0123456789"));
        body.put("target", "gone");
        String id = ok(kernel.post("/api/v1/sensors", admin, body), 201).path("id").asText();
        JsonNode failed = resultsUntil(id, r -> r.path("state").asText().equals("degraded"), "on_error state")
                .path("results").get(0);
        assertThat(failed.path("call_status").asText()).isEqualTo("error");
        assertThat(failed.path("detail").asText()).startsWith("the call failed (").doesNotContain("p-0123456789");

        // without its grant the gate refuses the sensor's principal: state unknown, the refusal audited
        String grant = ok(kernel.get("/api/v1/sensors/" + id, operator), 200).path("grant_id").asText();
        ok(kernel.post("/api/v1/service-principals/grants/" + grant + "/revoke", admin, null), 200);
        JsonNode denied = resultsUntil(id, r -> r.path("call_status").asText().equals("denied"), "a denied run")
                .path("results").get(0);
        assertThat(denied.path("state").asText()).isEqualTo("unknown");
        assertThat(denied.path("detail").asText()).contains("no_service_grant");
        JsonNode refusals = ok(kernel.get("/api/v1/audit?principal=svc-sensor:" + id + "&result_status=denied", admin), 200);
        assertThat(refusals.path("rows")).isNotEmpty().allSatisfy(r -> {
            assertThat(r.path("principal").asText()).isEqualTo("svc-sensor:" + id);
            assertThat(r.path("error_code").asText()).isEqualTo("no_service_grant");
        });
    }

    /** The due times of a sensor's results, oldest first. */
    private List<Instant> dueTimes(String id) {
        return kernel.jdbc().query("SELECT due_at FROM sensor_results WHERE sensor_id = ?::uuid ORDER BY due_at",
                rs -> rs.getTimestamp(1).toInstant(), id);
    }

    @Test
    void aCronSensorRunsAtItsFiringsOnly() {
        Map<String, Object> body = sensorBody("cron-10s", "cron-" + tenant, 5);
        body.remove("interval_seconds");
        body.put("cron", "*/10 * * * * *");
        String id = ok(kernel.post("/api/v1/sensors", admin, body), 201).path("id").asText();
        // three runs: judged by their due times, not by when they happened to finish on a loaded machine
        List<Instant> due = poll(() -> dueTimes(id), d -> d.size() >= 3, Duration.ofSeconds(120), "three cron runs");
        assertThat(due).as("one run per firing").doesNotHaveDuplicates();
        for (int i = 1; i < due.size(); i++) {
            assertThat(Duration.between(due.get(i - 1), due.get(i))).as("due times %s", due)
                    .isGreaterThanOrEqualTo(Duration.ofSeconds(10));
        }
        Instant first = due.getFirst();
        assertThat(due.stream().filter(d -> d.isBefore(first.plusSeconds(12))).count()).as("runs in 12 s: %s", due)
                .isLessThanOrEqualTo(2);
        ok(kernel.post("/api/v1/sensors/" + id + "/pause", admin, null), 200);
    }

    @Test
    void anOperationThatNowRequiresApprovalIsNeitherCreatedNorCalled() {
        String item = "appr-" + tenant;
        String id = ok(kernel.post("/api/v1/sensors", admin, sensorBody("to-approve", item, 5)), 201).path("id").asText();
        resultsUntil(id, r -> r.path("call_status").asText().equals("ok"), "a first call");
        ok(kernel.patch("/api/v1/connectors/sn-1.x/operations/sn.item1.get", admin, Map.of("requires_approval", true)), 200);
        error(kernel.post("/api/v1/sensors", admin, sensorBody("needs-approval", item, 5)), 422, "invalid_sensor");
        JsonNode refused = resultsUntil(id, r -> r.path("call_status").asText().equals("denied"), "a run that did not call")
                .path("results").get(0);
        assertThat(refused.path("state").asText()).isEqualTo("unknown");
        assertThat(refused.path("detail").asText()).contains("requires approval");
        assertThat(refused.path("audit_id").isMissingNode() || refused.path("audit_id").isNull()).as(refused.toString())
                .isTrue();
        assertThat(kernel.jdbc().queryOne("SELECT count(*) FROM governance_approvals WHERE tenant_id = ?",
                rs -> rs.getInt(1), tenant).orElse(0)).as("nothing parked").isZero();
        ok(kernel.post("/api/v1/sensors/" + id + "/pause", admin, null), 200);
    }

    @Test
    void runsAgainstASlowTargetNeverPileUp() throws Exception {
        java.util.concurrent.atomic.AtomicInteger inFlight = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicInteger most = new java.util.concurrent.atomic.AtomicInteger();
        HttpServer slow = HttpServer.create(new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 0);
        slow.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        slow.createContext("/", x -> {
            if (!x.getRequestURI().getPath().startsWith("/items/")) {
                LoopbackHttp.answer(x, 200, "1.0");
                return;
            }
            most.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            try {
                Thread.sleep(8_000); // longer than the sensor's interval
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                inFlight.decrementAndGet();
            }
            LoopbackHttp.answer(x, 200, "fine");
        });
        slow.start();
        try {
            LoopbackTarget.on(slow).register(kernel, admin, "slow", "sn");
            Map<String, Object> body = sensorBody("slow", "slow", 5);
            body.put("target", "slow");
            String id = ok(kernel.post("/api/v1/sensors", admin, body), 201).path("id").asText();
            List<Instant> due = poll(() -> dueTimes(id), d -> d.size() >= 2, Duration.ofSeconds(120), "two slow runs");
            ok(kernel.post("/api/v1/sensors/" + id + "/pause", admin, null), 200);
            assertThat(most.get()).as("calls in flight at once for one sensor").isEqualTo(1);
            assertThat(due).doesNotHaveDuplicates();
        } finally {
            slow.stop(0);
        }
    }

    @Test
    void pauseResumeAndUpdate() {
        String item = "pr-" + tenant;
        Map<String, Object> pausedBody = sensorBody("to-pause", item, 5);
        pausedBody.put("status", "paused");
        JsonNode p = ok(kernel.post("/api/v1/sensors", admin, pausedBody), 201);
        assertThat(p.path("status").asText()).isEqualTo("paused");
        String paused = p.path("id").asText();
        Instant pausedAt = Instant.now();
        String control = ok(kernel.post("/api/v1/sensors", admin, sensorBody("control", item, 5)), 201).path("id").asText();
        assertThat(ok(kernel.post("/api/v1/sensors/" + paused + "/pause", admin, null), 200).path("status").asText())
                .as("pausing a paused sensor is idempotent").isEqualTo("paused");
        int before = 0;
        // while the control runs twice after the pause, the paused sensor runs not at all
        poll(() -> ok(kernel.get("/api/v1/sensors/" + control + "/results?limit=500&from=" + pausedAt.plusSeconds(1), operator),
                200), page -> page.path("results").size() >= 2, Duration.ofSeconds(60), "two control runs");
        assertThat(ok(kernel.get("/api/v1/sensors/" + paused + "/results?limit=500", operator), 200).path("results").size())
                .isEqualTo(before);
        assertThat(ok(kernel.get("/api/v1/sensors?status=paused", operator), 200).path("sensors").findValuesAsText("id"))
                .containsExactly(paused);
        assertThat(ok(kernel.post("/api/v1/sensors/" + paused + "/resume", admin, null), 200).path("status").asText())
                .isEqualTo("active");
        resultsUntil(paused, r -> Instant.parse(r.path("evaluated_at").asText()).isAfter(pausedAt), "a run after resume");

        // update: rename, new params, a cron cadence; what it runs is fixed
        JsonNode updated = ok(kernel.patch("/api/v1/sensors/" + paused, admin, Map.of("name", "renamed",
                "cron", "*/10 * * * * *", "time_zone", "Europe/Berlin", "params", Map.of("name", "other"))), 200);
        assertThat(updated.path("name").asText()).isEqualTo("renamed");
        assertThat(updated.path("cadence_kind").asText()).isEqualTo("cron");
        assertThat(updated.path("interval_seconds").isMissingNode()).isTrue();
        assertThat(updated.path("time_zone").asText()).isEqualTo("Europe/Berlin");
        assertThat(updated.path("params").path("name").asText()).isEqualTo("other");
        assertThat(ok(kernel.get("/api/v1/sensors?cadence_kind=cron", operator), 200).path("sensors").findValuesAsText("id"))
                .containsExactly(paused);
        JsonNode back = ok(kernel.patch("/api/v1/sensors/" + paused, admin, Map.of("interval_seconds", 30)), 200);
        assertThat(back.path("cadence_kind").asText()).isEqualTo("interval");
        assertThat(back.path("cron").isMissingNode()).isTrue();
        error(kernel.patch("/api/v1/sensors/" + paused, admin, Map.of("op_id", "sn.item0.list")), 422, "invalid_sensor");
        error(kernel.patch("/api/v1/sensors/" + paused, admin, Map.of("name", "control")), 409, "sensor_exists");
        error(kernel.patch("/api/v1/sensors/" + paused, admin, Map.of("interval_seconds", 2)), 422, "invalid_sensor");
        error(kernel.patch("/api/v1/sensors/" + paused, operator, Map.of("name", "x")), 403, "insufficient_role");
        error(kernel.post("/api/v1/sensors/" + paused + "/pause", operator, null), 403, "insufficient_role");
        assertThat(ok(kernel.get("/api/v1/sensors/" + paused, operator), 200).path("name").asText()).isEqualTo("renamed");
        // both show in what runs by itself, with the read they run and their latest state
        JsonNode automation = ok(kernel.get("/api/v1/automation", operator), 200).path("automations");
        assertThat(automation).hasSize(2).allSatisfy(a -> {
            assertThat(a.path("kind").asText()).isEqualTo("sensor");
            assertThat(a.path("runs").asText()).isEqualTo("read:sn-1.x sn.item1.get on web");
        });
        JsonNode controlRow = automation.get(0).path("id").asText().equals(control) ? automation.get(0) : automation.get(1);
        assertThat(controlRow.path("description").asText()).isEqualTo("control, every 5 s");
        assertThat(controlRow.path("last_run_status").asText()).isEqualTo("ok");
    }

    @Test
    void writeOperationsAndBadInputAreRefusedAndWriteNothing() {
        int rows = sensorRows();
        Map<String, Object> write = sensorBody("deleter", "x", 60);
        write.put("op_id", "sn.item2.delete");
        error(kernel.post("/api/v1/sensors", admin, write), 422, "not_a_read_operation");
        for (Object bad : List.of(4, 86_401, 0, -5)) {
            Map<String, Object> b = sensorBody("bad-interval", "x", 60);
            b.put("interval_seconds", bad);
            error(kernel.post("/api/v1/sensors", admin, b), 422, "invalid_sensor");
        }
        Map<String, Object> both = sensorBody("both", "x", 60);
        both.put("cron", "0 * * * * *");
        error(kernel.post("/api/v1/sensors", admin, both), 422, "invalid_sensor");
        for (String cron : List.of("* * * * * *", "*/2 * * * * *", "not a cron", "0 0 0 31 2 *", "")) {
            Map<String, Object> b = sensorBody("bad-cron", "x", 60);
            b.remove("interval_seconds");
            b.put("cron", cron);
            error(kernel.post("/api/v1/sensors", admin, b), 422, "invalid_sensor");
        }
        Map<String, Object> zone = sensorBody("bad-zone", "x", 60);
        zone.remove("interval_seconds");
        zone.put("cron", "0 * * * * *");
        zone.put("time_zone", "Mars/Olympus");
        error(kernel.post("/api/v1/sensors", admin, zone), 422, "invalid_sensor");
        for (String assertion : List.of("{\"rules\": []}", "{\"rules\": [{\"state\": \"red\", \"when\": {\"path\": \"/a\", "
                + "\"eq\": 1}}]}", "{\"code\": \"Runtime.exec('x')\"}", "[1]", "\"critical\"")) {
            Map<String, Object> b = sensorBody("bad-assertion", "x", 60);
            b.put("assertion", json(assertion));
            error(kernel.post("/api/v1/sensors", admin, b), 422, "invalid_assertion");
        }
        Map<String, Object> big = sensorBody("big", "x", 60);
        big.put("assertion", json("{\"rules\": [{\"state\": \"ok\", \"when\": {\"path\": \"/a\", \"eq\": \"" + "y".repeat(9000)
                + "\"}}]}"));
        error(kernel.post("/api/v1/sensors", admin, big), 422, "invalid_assertion");
        Map<String, Object> noAssertion = sensorBody("none", "x", 60);
        noAssertion.remove("assertion");
        error(kernel.post("/api/v1/sensors", admin, noAssertion), 422, "invalid_assertion");
        for (String name : List.of("", "-lead", "has space", "x".repeat(129))) {
            error(kernel.post("/api/v1/sensors", admin, sensorBody(name, "x", 60)), 422, "invalid_sensor");
        }
        Map<String, Object> unknownTarget = sensorBody("t", "x", 60);
        unknownTarget.put("target", "nowhere");
        error(kernel.post("/api/v1/sensors", admin, unknownTarget), 404, "target_not_found");
        Map<String, Object> unknownConnector = sensorBody("c", "x", 60);
        unknownConnector.put("connector_id", "nope-1.x");
        error(kernel.post("/api/v1/sensors", admin, unknownConnector), 404, "unknown_connector");
        Map<String, Object> unknownField = sensorBody("f", "x", 60);
        unknownField.put("script", "x");
        error(kernel.post("/api/v1/sensors", admin, unknownField), 422, "invalid_request");
        Map<String, Object> badParams = sensorBody("p", "x", 60);
        badParams.put("params", Map.of("name", 5));
        TestKernel.Response refusedParams = kernel.post("/api/v1/sensors", admin, badParams);
        error(refusedParams, 422, "invalid_params");
        assertThat(refusedParams.json().path("extras").path("validation_errors").toString()).as(refusedParams.body()).contains("/name");
        error(kernel.post("/api/v1/sensors", operator, sensorBody("op", "x", 60)), 403, "insufficient_role");
        error(kernel.send("POST", "/api/v1/sensors", admin, "{not json", Map.of()), 400, "invalid_json");
        assertThat(sensorRows()).as("no refused create wrote a sensor").isEqualTo(rows);

        String dup = ok(kernel.post("/api/v1/sensors", admin, sensorBody("dup", "x", 60)), 201).path("id").asText();
        error(kernel.patch("/api/v1/sensors/" + dup, admin, Map.of("params", Map.of("name", List.of()))), 422,
                "invalid_params");
        error(kernel.post("/api/v1/sensors", admin, sensorBody("dup", "x", 60)), 409, "sensor_exists");

        error(kernel.get("/api/v1/sensors?limit=0", operator), 422, "invalid_limit");
        error(kernel.get("/api/v1/sensors?limit=501", operator), 422, "invalid_limit");
        error(kernel.get("/api/v1/sensors?offset=-1", operator), 422, "invalid_offset");
        error(kernel.get("/api/v1/sensors?status=broken", operator), 422, "invalid_status");
        error(kernel.get("/api/v1/sensors?cadence_kind=daily", operator), 422, "invalid_query");
        String id = ok(kernel.get("/api/v1/sensors", operator), 200).path("sensors").get(0).path("id").asText();
        error(kernel.get("/api/v1/sensors/" + id + "/results?limit=501", operator), 422, "invalid_limit");
        error(kernel.get("/api/v1/sensors/" + id + "/results?cursor=abc", operator), 422, "invalid_cursor");
        error(kernel.get("/api/v1/sensors/" + id + "/results?from=yesterday", operator), 422, "invalid_time");
        error(kernel.get("/api/v1/sensors/" + id + "/results?from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z", operator),
                422, "invalid_time");
        error(kernel.get("/api/v1/sensors/" + id + "/results?to=%2B1000000-01-01T00:00:00Z", operator), 422, "invalid_time");
        error(kernel.get("/api/v1/sensors/" + id + "/results?state=red", operator), 422, "invalid_query");
        error(kernel.get("/api/v1/sensors/" + UUID.randomUUID(), operator), 404, "sensor_not_found");
        error(kernel.get("/api/v1/sensors/not-a-uuid", operator), 404, "sensor_not_found");
        error(kernel.delete("/api/v1/sensors/" + UUID.randomUUID(), admin), 404, "sensor_not_found");
        error(kernel.delete("/api/v1/sensors/" + id, operator), 403, "insufficient_role");
        // another tenant sees nothing of it
        String other = issuer.tenantAdmin(UUID.randomUUID());
        error(kernel.get("/api/v1/sensors/" + id, other), 404, "sensor_not_found");
        assertThat(ok(kernel.get("/api/v1/sensors", other), 200).path("sensors")).isEmpty();
    }

    @Test
    void resultsOlderThanTheRetentionAreSwept() {
        Map<String, Object> body = sensorBody("kept", "x", 60);
        body.put("status", "paused");
        String id = ok(kernel.post("/api/v1/sensors", admin, body), 201).path("id").asText();
        String insert = "INSERT INTO sensor_results (sensor_id, tenant_id, due_at, evaluated_at, state, detail, call_status, "
                + "duration_ms) VALUES (?::uuid, ?, now() - make_interval(days => ?), now() - make_interval(days => ?), "
                + "'ok', 'seeded', 'ok', 1)";
        kernel.jdbc().update(insert, id, tenant, 8, 8);
        kernel.jdbc().update(insert, id, tenant, 6, 6);
        try (SensorRuns runs = new SensorRuns(kernel.jdbc(), null, null, 7, 1)) {
            assertThat(runs.sweep()).isPositive();
        }
        JsonNode left = ok(kernel.get("/api/v1/sensors/" + id + "/results", operator), 200).path("results");
        assertThat(left).hasSize(1);
        assertThat(Instant.parse(left.get(0).path("evaluated_at").asText())).isAfter(Instant.now().minus(Duration.ofDays(7)));
    }

    @Test
    void aRunThatThrowsRecordsUnknownInsteadOfNothing() {
        Map<String, Object> body = sensorBody("throws", "x", 60);
        body.put("status", "paused");
        String id = ok(kernel.post("/api/v1/sensors", admin, body), 201).path("id").asText();
        // no dispatcher: the call throws a NullPointerException, as a plugin or kernel bug would
        try (SensorRuns runs = new SensorRuns(kernel.jdbc(), null, null, 7, 1)) {
            runs.run(new SensorRuns.Due(UUID.fromString(id), tenant, "sn-1.x", "sn.item1.get", "web", "{}",
                    ASSERTION, "svc-sensor:" + id, 60, null, null, Instant.now()));
        }
        JsonNode r = ok(kernel.get("/api/v1/sensors/" + id + "/results", operator), 200).path("results");
        assertThat(r).hasSize(1);
        assertThat(r.get(0).path("state").asText()).isEqualTo("unknown");
        assertThat(r.get(0).path("call_status").asText()).isEqualTo("error");
        assertThat(r.get(0).path("detail").asText()).isEqualTo("internal error while running the sensor");
        assertThat(ok(kernel.get("/api/v1/sensors/" + id, operator), 200).path("last_state").asText()).isEqualTo("unknown");
    }

    @Test
    void theCliDrivesSensors() throws Exception {
        Path home = TempDirs.create("svc-cli-sensor");
        CliRunner adm = kernel.cli(home.resolve("admin"), admin);
        CliRunner op = kernel.cli(home.resolve("op"), operator);
        Path assertion = home.resolve("assertion.json");
        Files.writeString(assertion, ASSERTION);
        String item = "cli-" + tenant;
        BODIES.put(item, "DOWN");
        CliRunner.Result created = adm.run("sensor", "create", "--name", "cli-health", "--connector-id", "sn-1.x",
                "--op-id", "sn.item1.get", "--target", "web", "--params", "{\"name\": \"" + item + "\"}", "--assertion",
                "@" + assertion, "--interval-seconds", "5");
        assertThat(created.exitCode()).as(created.toString()).isZero();
        assertThat(created.out()).contains("created sensor:").contains("cli-health").contains("every 5 s");
        String id = created.out().lines().filter(l -> l.contains("cli-health")).findFirst().orElseThrow().split(" ")[0];
        assertThat(adm.run("sensor", "create", "--name", "x", "--connector-id", "sn-1.x", "--op-id", "sn.item1.get",
                "--target", "web", "--assertion", "{}").exitCode()).as("no cadence is a usage error").isEqualTo(2);
        assertThat(adm.run("sensor", "create", "--name", "x", "--connector-id", "sn-1.x", "--op-id", "sn.item2.delete",
                "--target", "web", "--assertion", "@" + assertion, "--interval-seconds", "60").err())
                .contains("not_a_read_operation");
        CliRunner.Result listed = op.run("sensor", "list", "--status", "active");
        assertThat(listed.exitCode()).as(listed.toString()).isZero();
        assertThat(listed.out()).contains(id).contains("sn.item1.get");
        assertThat(op.run("sensor", "list", "--limit", "501").exitCode()).isEqualTo(2);
        resultsUntil(id, r -> r.path("state").asText().equals("critical"), "a critical result");
        CliRunner.Result results = op.run("sensor", "results", id, "--state", "critical", "--limit", "1");
        assertThat(results.exitCode()).as(results.toString()).isZero();
        assertThat(results.out()).contains("critical").contains("down matched");
        assertThat(op.run("sensor", "results", id, "--from", "yesterday").exitCode()).isEqualTo(2);
        assertThat(op.run("sensor", "show", id).out()).contains("assertion:").contains("\"rules\"");
        assertThat(adm.run("sensor", "pause", id).out()).contains("paused");
        assertThat(adm.run("sensor", "update", id, "--interval-seconds", "60").out()).contains("every 60 s");
        assertThat(adm.run("sensor", "resume", id).out()).contains("active");
        assertThat(op.run("sensor", "pause", id).exitCode()).isNotZero();
        assertThat(adm.run("sensor", "delete", id).exitCode()).as("delete needs --confirm").isEqualTo(2);
        CliRunner.Result deleted = adm.run("sensor", "delete", id, "--confirm");
        assertThat(deleted.exitCode()).as(deleted.toString()).isZero();
        assertThat(op.run("sensor", "show", id).exitCode()).isNotZero();
        List<String> none = new ArrayList<>(List.of(op.run("sensor", "list").out().split("\n")));
        assertThat(none).noneMatch(l -> l.contains(id));
    }
}
