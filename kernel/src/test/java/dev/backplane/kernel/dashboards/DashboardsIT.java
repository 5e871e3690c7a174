package dev.backplane.kernel.dashboards;

import static dev.backplane.kernel.sensors.SensorsIT.error;
import static dev.backplane.kernel.sensors.SensorsIT.ok;
import static dev.backplane.kernel.sensors.SensorsIT.poll;
import static dev.backplane.kernel.sensors.SensorsIT.sensorBody;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.icegreen.greenmail.util.GreenMailUtil;
import dev.backplane.kernel.credentials.FileKvStore;
import dev.backplane.kernel.testing.BeforeKernel;
import dev.backplane.kernel.testing.CliRunner;
import dev.backplane.kernel.testing.KernelSetup;
import dev.backplane.kernel.testing.LoopbackSmtp;
import dev.backplane.kernel.testing.LoopbackTarget;
import dev.backplane.kernel.testing.PerTestTenant;
import dev.backplane.kernel.testing.TempDirs;
import dev.backplane.kernel.testing.TestPlugins;
import jakarta.mail.Address;
import jakarta.mail.internet.MimeMessage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Dashboards end to end: a real SMTP server (GreenMail) on loopback that requires the login whose
 * password the kernel reads through a secret_ref, sensors against a loopback HTTP target, and the
 * kernel on real PostgreSQL. A roll-up that worsens to notify_min_state mails the recipients the
 * tenant's mail-recipient policy allows (refused ones audited), once per suppression window (the
 * suppressed one audited), and starts the bound investigator agent; every bad input is refused.
 */
class DashboardsIT extends PerTestTenant {

    private static final String SMTP_USER = "svc-mailer";
    private static final String SMTP_PASSWORD = "smtp-pw-" + UUID.randomUUID();
    private static final Map<String, String> BODIES = new ConcurrentHashMap<>();
    private static LoopbackTarget target;
    private static LoopbackSmtp smtp;

    @BeforeKernel
    static void start(KernelSetup setup) {
        target = LoopbackTarget.itemBodies(setup, BODIES);
        setup.plugin(TestPlugins.connector("db", "1.x").product("db").ranges("*").operations(3).httpProbe(true));
        smtp = LoopbackSmtp.requiringLogin(SMTP_USER, SMTP_PASSWORD).serving(setup);
        new FileKvStore(setup.data().resolve("kv")).write("platform/mail/smtp", Map.of("password", SMTP_PASSWORD));
        setup.setting("SVC_MAIL_SMTP_USERNAME", SMTP_USER)
                .setting("SVC_MAIL_SMTP_PASSWORD_REF", "platform/mail/smtp");
    }

    @BeforeEach
    void targetReady() {
        target.register(kernel, admin, "web", "db");
        kernel.enableConnector(admin, "db-1.x");
    }

    private String sensor(String name, String item) {
        Map<String, Object> body = sensorBody(name, item, 5);
        body.put("connector_id", "db-1.x");
        body.put("op_id", "db.item1.get");
        return ok(kernel.post("/api/v1/sensors", admin, body), 201).path("id").asText();
    }

    private JsonNode rollupIs(String dashboard, String state) {
        return poll(() -> ok(kernel.get("/api/v1/dashboards/" + dashboard, operator), 200),
                d -> d.path("rollup_state").asText().equals(state), Duration.ofSeconds(60), "roll-up " + state);
    }

    /** The stored roll-up the notifier compares against (written in its transaction, after any claim). */
    private void storedRollupIs(String dashboard, String state) {
        poll(() -> kernel.jdbc().queryOne("SELECT rollup_state FROM dashboards WHERE id = ?::uuid", rs -> rs.getString(1),
                dashboard).orElseThrow(), state::equals, Duration.ofSeconds(60), "stored roll-up " + state);
    }

    private JsonNode mailAudit(String query) {
        return ok(kernel.get("/api/v1/audit?op_id=svc.dashboards.mail&" + query, admin), 200);
    }

    @Test
    void aWorseningRollUpMailsTheAllowedRecipientsOnceAndStartsTheInvestigator() throws Exception {
        ok(kernel.put("/api/v1/tenants/current/mail-recipient-policy", admin, Map.of("allowlist", "example.com")), 200);
        ok(kernel.post("/api/v1/agent-principals", admin, Map.of("name", "inv-bot")), 201);
        ok(kernel.post("/api/v1/agents", admin, Map.of("name", "investigator", "identity_ref", "inv-bot",
                "system_prompt", "You investigate failing sensors.")), 201);
        String oncall = "oncall-" + tenant + "@example.com";
        String item = "web-" + tenant;
        BODIES.put(item, "fine");
        String s = sensor("web-health", item);
        JsonNode d = ok(kernel.post("/api/v1/dashboards", admin, Map.of("name", "web tier", "description", "the web tier",
                "investigator_prompt", "Find out why the web tier is down.", "investigator_agent", "investigator",
                "notify_email", oncall + ", Boss@Other.org", "sensor_ids", List.of(s))), 201);
        String id = d.path("id").asText();
        assertThat(d.path("notify_min_state").asText()).as("server default").isEqualTo("critical");
        assertThat(d.path("notify_email").asText()).isEqualTo(oncall + ",boss@other.org");
        assertThat(d.path("sensor_ids").get(0).asText()).isEqualTo(s);
        rollupIs(id, "ok");
        storedRollupIs(id, "ok");

        BODIES.put(item, "DOWN: 502 from upstream");
        assertThat(smtp.awaitMessages(60_000, 1)).as("a notification mail").isTrue();
        MimeMessage mail = poll(() -> smtp.to(oncall), l -> !l.isEmpty(), Duration.ofSeconds(60), "mail to on-call").getFirst();
        assertThat(Arrays.stream(mail.getAllRecipients()).map(Address::toString)).containsExactly(oncall);
        assertThat(mail.getFrom()[0].toString()).isEqualTo("svc@backplane.test");
        assertThat(mail.getSubject()).isEqualTo("[svc] dashboard web tier is CRITICAL (was ok)");
        String body = GreenMailUtil.getBody(mail);
        assertThat(body).contains("web-health: critical - down matched").contains("svc dashboard show " + id)
                .contains("suppressed for 30 minutes").doesNotContain(SMTP_PASSWORD).doesNotContain("p-0123456789");
        assertThat(smtp.to("boss@other.org")).as("refused by the policy").isEmpty();
        JsonNode refused = poll(() -> mailAudit("result_status=denied"), a -> a.path("rows").size() >= 1,
                Duration.ofSeconds(60), "the refused recipient's audit row");
        assertThat(refused.path("rows").get(0).path("error_code").asText()).isEqualTo("recipient_not_allowed");
        assertThat(refused.path("rows").get(0).path("extras").path("recipient").asText()).isEqualTo("boss@other.org");
        assertThat(refused.path("rows").get(0).path("principal").asText()).isEqualTo("svc-dashboard:" + id);
        JsonNode sent = poll(() -> mailAudit("result_status=ok"), a -> a.path("rows").size() >= 1, Duration.ofSeconds(60),
                "the sent mail's audit row");
        assertThat(sent.path("rows").get(0).path("extras").path("recipients").get(0).asText()).isEqualTo(oncall);
        assertThat(sent.toString()).doesNotContain(SMTP_PASSWORD);
        JsonNode runs = poll(() -> ok(kernel.get("/api/v1/agent-runs?agent_name=investigator", operator), 200),
                r -> r.path("runs").size() >= 1, Duration.ofSeconds(60), "the investigator's run");
        assertThat(runs.path("runs")).hasSize(1);
        assertThat(runs.path("runs").get(0).path("started_by").asText()).isEqualTo("svc-dashboard:" + id);

        // back to ok and critical again within 30 minutes: suppressed (audited), no second mail, no second run
        BODIES.put(item, "fine");
        storedRollupIs(id, "ok");
        BODIES.put(item, "DOWN again");
        JsonNode suppressed = poll(() -> mailAudit("result_status=denied"), a -> a.toString().contains("\"suppressed\""),
                Duration.ofSeconds(60), "the suppressed notification's audit row");
        assertThat(suppressed.toString()).contains("\"rollup_to\":\"critical\"");
        assertThat(smtp.to(oncall)).hasSize(1);
        assertThat(ok(kernel.get("/api/v1/agent-runs?agent_name=investigator", operator), 200).path("runs")).hasSize(1);

        // once the window has passed, the next worsening notifies again
        BODIES.put(item, "fine");
        storedRollupIs(id, "ok");
        kernel.jdbc().update("UPDATE dashboards SET last_notified_at = now() - interval '31 minutes' WHERE id = ?::uuid", id);
        BODIES.put(item, "DOWN a third time");
        poll(() -> smtp.to(oncall), l -> l.size() == 2, Duration.ofSeconds(60), "a second mail after the window");
        assertThat(ok(kernel.get("/api/v1/agent-runs?agent_name=investigator", operator), 200).path("runs")).hasSize(2);
    }

    @Test
    void degradedThresholdWithNoPolicyRefusesEveryRecipient() {
        String to = "team-" + tenant + "@example.com";
        String item = "slow-" + tenant;
        BODIES.put(item, "fine");
        String s = sensor("latency", item);
        Map<String, Object> body = new HashMap<>(Map.of("name", "latency", "notify_email", to, "notify_min_state",
                "degraded", "sensor_ids", List.of(s)));
        String id = ok(kernel.post("/api/v1/dashboards", admin, body), 201).path("id").asText();
        storedRollupIs(id, "ok");
        BODIES.put(item, "SLOW today");
        JsonNode refused = poll(() -> mailAudit("result_status=denied"), a -> a.path("rows").size() >= 1,
                Duration.ofSeconds(60), "the refusal");
        assertThat(refused.path("rows").get(0).path("error_code").asText()).isEqualTo("recipient_not_allowed");
        assertThat(refused.path("rows").get(0).path("extras").path("policy").asText()).isEqualTo("unset");
        assertThat(refused.path("rows").get(0).path("extras").path("rollup_to").asText()).isEqualTo("degraded");
        assertThat(smtp.to(to)).as("an unset policy denies all mail").isEmpty();
        assertThat(rollupIs(id, "degraded").path("members").get(0).path("state").asText()).isEqualTo("degraded");
    }

    @Test
    void rollUpRulesAndBadInput() {
        JsonNode empty = ok(kernel.post("/api/v1/dashboards", admin, Map.of("name", "empty")), 201);
        assertThat(empty.path("rollup_state").asText()).as("no sensors rolls up as unknown").isEqualTo("unknown");
        assertThat(empty.path("notify_email").isNull()).isTrue();
        String okItem = "ok-" + tenant;
        String skipItem = "skip-" + tenant;
        BODIES.put(okItem, "fine");
        BODIES.put(skipItem, "MAINT");
        String okSensor = sensor("ok-one", okItem);
        String skipSensor = sensor("skip-one", skipItem);
        String both = ok(kernel.post("/api/v1/dashboards", admin, Map.of("name", "both", "sensor_ids",
                List.of(okSensor, skipSensor, okSensor))), 201).path("id").asText();
        String onlySkip = ok(kernel.post("/api/v1/dashboards", admin, Map.of("name", "only skip", "sensor_ids",
                List.of(skipSensor))), 201).path("id").asText();
        JsonNode rolled = rollupIs(both, "ok");
        assertThat(rolled.path("members")).hasSize(2);
        poll(() -> ok(kernel.get("/api/v1/sensors/" + skipSensor, operator), 200), x -> x.path("last_state").asText()
                .equals("skip"), Duration.ofSeconds(60), "the skip sensor's state");
        assertThat(ok(kernel.get("/api/v1/dashboards/" + onlySkip, operator), 200).path("rollup_state").asText())
                .isEqualTo("unknown");

        long rows = kernel.jdbc().queryOne("SELECT count(*) FROM dashboards WHERE tenant_id = ?", rs -> rs.getLong(1), tenant)
                .orElseThrow();
        error(kernel.post("/api/v1/dashboards", admin, Map.of("description", "x")), 422, "invalid_dashboard");
        error(kernel.post("/api/v1/dashboards", admin, Map.of("name", " ")), 422, "invalid_dashboard");
        error(kernel.post("/api/v1/dashboards", admin, Map.of("name", "web\r\nBcc: all@example.com")), 422,
                "invalid_dashboard");
        error(kernel.post("/api/v1/dashboards", admin, Map.of("name", "x".repeat(201))), 422, "invalid_dashboard");
        error(kernel.post("/api/v1/dashboards", admin, Map.of("name", "p", "investigator_prompt", "x".repeat(4097))), 422,
                "invalid_dashboard");
        for (String bad : List.of("not-an-address", "Boss <boss@example.com>", "a@b@example.com", "a@example.com; b@x.org",
                ",", "x@localhost")) {
            error(kernel.post("/api/v1/dashboards", admin, Map.of("name", "m", "notify_email", bad)), 422, "invalid_dashboard");
        }
        error(kernel.post("/api/v1/dashboards", admin, Map.of("name", "s", "notify_min_state", "warning")), 422,
                "invalid_dashboard");
        error(kernel.post("/api/v1/dashboards", admin, Map.of("name", "s", "sensor_ids", List.of(UUID.randomUUID().toString()))),
                422, "unknown_sensor");
        error(kernel.post("/api/v1/dashboards", admin, Map.of("name", "s", "sensor_ids", List.of("nope"))), 422,
                "unknown_sensor");
        error(kernel.post("/api/v1/dashboards", admin, Map.of("name", "s", "investigator_agent", "ghost")), 422,
                "unknown_agent");
        error(kernel.post("/api/v1/dashboards", admin, Map.of("name", "both")), 409, "dashboard_exists");
        error(kernel.post("/api/v1/dashboards", operator, Map.of("name", "op")), 403, "insufficient_role");
        assertThat(kernel.jdbc().queryOne("SELECT count(*) FROM dashboards WHERE tenant_id = ?", rs -> rs.getLong(1), tenant)
                .orElseThrow()).as("nothing half-written").isEqualTo(rows);
        // another tenant's sensor cannot be a member, and its dashboards are invisible
        UUID other = UUID.randomUUID();
        String otherAdmin = issuer.tenantAdmin(other);
        error(kernel.post("/api/v1/dashboards", otherAdmin, Map.of("name", "steal", "sensor_ids", List.of(okSensor))), 422,
                "unknown_sensor");
        error(kernel.get("/api/v1/dashboards/" + both, otherAdmin), 404, "dashboard_not_found");
        error(kernel.delete("/api/v1/dashboards/" + both, otherAdmin), 404, "dashboard_not_found");
        assertThat(ok(kernel.get("/api/v1/dashboards", otherAdmin), 200).path("dashboards")).isEmpty();

        error(kernel.get("/api/v1/dashboards?limit=0", operator), 422, "invalid_limit");
        error(kernel.get("/api/v1/dashboards/not-a-uuid", operator), 404, "dashboard_not_found");
        JsonNode page = ok(kernel.get("/api/v1/dashboards?limit=2", operator), 200).path("dashboards");
        assertThat(List.of(page.get(0).path("name").asText(), page.get(1).path("name").asText()))
                .containsExactly("both", "empty");
        assertThat(page).hasSize(2);
        // a deleted sensor leaves its dashboards; deleting a dashboard keeps its sensors
        ok(kernel.delete("/api/v1/sensors/" + skipSensor, admin), 200);
        assertThat(ok(kernel.get("/api/v1/dashboards/" + both, operator), 200).path("members")).hasSize(1);
        error(kernel.delete("/api/v1/dashboards/" + both, operator), 403, "insufficient_role");
        ok(kernel.delete("/api/v1/dashboards/" + both, admin), 200);
        error(kernel.get("/api/v1/dashboards/" + both, operator), 404, "dashboard_not_found");
        ok(kernel.get("/api/v1/sensors/" + okSensor, operator), 200);
        // deleting a member recomputes the stored roll-up at once (its only member gone: unknown), with no mail
        String last = ok(kernel.post("/api/v1/dashboards", admin, Map.of("name", "last member", "sensor_ids",
                List.of(okSensor))), 201).path("id").asText();
        storedRollupIs(last, "ok");
        ok(kernel.delete("/api/v1/sensors/" + okSensor, admin), 200);
        assertThat(kernel.jdbc().queryOne("SELECT rollup_state FROM dashboards WHERE id = ?::uuid", rs -> rs.getString(1),
                last).orElseThrow()).isEqualTo("unknown");
    }

    @Test
    void theCliDrivesDashboardsAndOnlyAPlatformAdminNamesAnotherTenant() throws Exception {
        Path home = TempDirs.create("svc-cli-dashboard");
        CliRunner adm = kernel.cli(home.resolve("admin"), admin);
        CliRunner op = kernel.cli(home.resolve("op"), operator);
        String item = "cli-" + tenant;
        String s = sensor("cli-sensor", item);
        Path prompt = home.resolve("prompt.txt");
        Files.writeString(prompt, "Look at the web tier.");
        CliRunner.Result created = adm.run("dashboard", "create", "--name", "cli-dash", "--description", "d",
                "--investigator-prompt", "@" + prompt, "--notify-email", "a@example.com", "--notify-min-state", "degraded",
                "--sensor-id", s);
        assertThat(created.exitCode()).as(created.toString()).isZero();
        assertThat(created.out()).contains("created dashboard:").contains("cli-dash").contains("notify a@example.com at degraded");
        String id = created.out().lines().filter(l -> l.contains("cli-dash")).findFirst().orElseThrow().split(" ")[0];
        assertThat(ok(kernel.get("/api/v1/dashboards/" + id, operator), 200).path("investigator_prompt").asText())
                .isEqualTo("Look at the web tier.");
        CliRunner.Result listed = op.run("dashboard", "list");
        assertThat(listed.exitCode()).as(listed.toString()).isZero();
        assertThat(listed.out()).contains(id).contains("1 sensor(s)");
        CliRunner.Result shown = op.run("dashboard", "show", id);
        assertThat(shown.out()).contains("cli-sensor").contains(s);
        CliRunner.Result refused = op.run("dashboard", "create", "--name", "nope");
        assertThat(refused.exitCode()).isNotZero();
        assertThat(refused.err()).contains("insufficient_role");
        CliRunner.Result other = adm.run("dashboard", "create", "--name", "x", "--tenant", UUID.randomUUID().toString());
        assertThat(other.exitCode()).isNotZero();
        assertThat(other.err()).contains("insufficient_role");
        String platform = issuer.platformAdminToken("platform-" + tenant, UUID.randomUUID());
        CliRunner plat = kernel.cli(home.resolve("platform"), platform);
        CliRunner.Result forTenant = plat.run("dashboard", "create", "--name", "by-platform", "--tenant", tenant.toString());
        assertThat(forTenant.exitCode()).as(forTenant.toString()).isZero();
        assertThat(ok(kernel.get("/api/v1/dashboards", operator), 200).path("dashboards").findValuesAsText("name"))
                .contains("by-platform");
        CliRunner.Result deleted = adm.run("dashboard", "delete", id);
        assertThat(deleted.exitCode()).as(deleted.toString()).isZero();
        assertThat(op.run("dashboard", "show", id).exitCode()).isNotZero();
    }
}
