package dev.backplane.kernel.scheduler;

import static dev.backplane.kernel.testing.ScriptedModel.text;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.testing.BeforeKernel;
import dev.backplane.kernel.testing.CliRunner;
import dev.backplane.kernel.testing.KernelSetup;
import dev.backplane.kernel.testing.PerTestTenant;
import dev.backplane.kernel.testing.ScriptedModel;
import dev.backplane.kernel.testing.TempDirs;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * Cron triggers on a real kernel: a schedule fires one run per scheduled time (the trigger's inputs as
 * the prompt, started by the trigger), pause stops it and resume picks up from now, bad schedules are
 * refused with the field named, and the CLI and the automation list show the schedule.
 */
class CronTriggersIT extends PerTestTenant {

    private static ScriptedModel model;

    @BeforeKernel
    static void start(KernelSetup setup) {
        model = ScriptedModel.forKernel(setup).otherwise(text("checked"));
        setup.setting("SVC_SCHEDULER_CRON_MIN_INTERVAL_SECONDS", "2");
    }

    private void agent(String name) {
        assertThat(kernel.post("/api/v1/agent-principals", admin, Map.of("name", name + "-bot")).status()).isEqualTo(201);
        assertThat(kernel.post("/api/v1/agents", admin, Map.of("name", name, "identity_ref", name + "-bot")).status())
                .isEqualTo(201);
    }

    private List<JsonNode> runs(String agent) {
        List<JsonNode> out = new ArrayList<>();
        kernel.get("/api/v1/agent-runs?agent_name=" + agent, admin).json().path("runs").forEach(out::add);
        return out;
    }

    private static void await(String what, BooleanSupplier done) throws InterruptedException {
        Instant deadline = Instant.now().plusSeconds(45);
        while (Instant.now().isBefore(deadline)) {
            if (done.getAsBoolean()) {
                return;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("timed out waiting for " + what);
    }

    private void refused(Map<String, Object> body, String field) {
        var r = kernel.post("/api/v1/scheduler/triggers", admin, body);
        assertThat(r.status()).as(r.body()).isEqualTo(422);
        assertThat(r.json().path("extras").path("field").asText()).as(r.body()).isEqualTo(field);
    }

    @Test
    void aScheduleFiresOneRunPerScheduledTimeAndPauseStopsIt() throws Exception {
        agent("nightly");
        var created = kernel.post("/api/v1/scheduler/triggers", admin, Map.of("kind", "cron", "agent_definition", "nightly",
                "cron", "*/2 * * * * *", "inputs", "Check the backup jobs."));
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        JsonNode t = created.json();
        String id = t.path("id").asText();
        assertThat(t.path("kind").asText()).isEqualTo("cron");
        assertThat(t.path("time_zone").asText()).isEqualTo("UTC");
        assertThat(t.path("next_fire_at").asText()).isNotEmpty();
        assertThat(t.path("event_filter").isNull()).isTrue();

        await("two scheduled runs", () -> runs("nightly").stream().filter(r -> r.path("status").asText()
                .equals("succeeded")).count() >= 2);
        assertThat(runs("nightly")).allSatisfy(r -> assertThat(r.path("started_by").asText())
                .isEqualTo("svc-trigger:" + id));
        assertThat(model.requests().stream().map(ScriptedModel::transcript)).anySatisfy(prompt -> assertThat(prompt)
                .contains("Check the backup jobs.").contains("scheduled run of cron trigger " + id));
        List<String> times = kernel.jdbc().query("SELECT scheduled_for::text FROM scheduler_trigger_fires WHERE trigger_id = ?",
                rs -> rs.getString(1), UUID.fromString(id));
        assertThat(times).doesNotHaveDuplicates();
        assertThat((long) times.size()).as("one run per firing").isEqualTo(kernel.jdbc().queryOne("SELECT count(*) FROM "
                + "agent_runs WHERE trigger_id = ?", rs -> rs.getLong(1), UUID.fromString(id)).orElseThrow());

        assertThat(kernel.post("/api/v1/scheduler/triggers/" + id + "/pause", admin, null).status()).isEqualTo(200);
        Thread.sleep(1500); // a firing claimed just before the pause may still commit
        long paused = runs("nightly").size();
        Thread.sleep(7000);
        assertThat(runs("nightly")).as("nothing fires while paused").hasSize((int) paused);
        JsonNode resumed = kernel.post("/api/v1/scheduler/triggers/" + id + "/resume", admin, null).json();
        assertThat(Instant.parse(resumed.path("next_fire_at").asText())).as("from now, not the paused-through times")
                .isAfter(Instant.now().minusSeconds(1));
        await("firing again", () -> runs("nightly").size() > paused);
        assertThat(kernel.delete("/api/v1/scheduler/triggers/" + id, admin).status()).isEqualTo(200);
    }

    @Test
    void badSchedulesAreRefusedWithTheFieldNamed() {
        agent("checker");
        refused(Map.of("kind", "cron", "agent_definition", "checker", "inputs", "x"), "cron");
        refused(Map.of("kind", "cron", "agent_definition", "checker", "cron", "* * * * *", "inputs", "x"), "cron");
        refused(Map.of("kind", "cron", "agent_definition", "checker", "cron", "61 * * * * *", "inputs", "x"), "cron");
        refused(Map.of("kind", "cron", "agent_definition", "checker", "cron", "not a cron", "inputs", "x"), "cron");
        refused(Map.of("kind", "cron", "agent_definition", "checker", "cron", "* * * * * *", "inputs", "x"), "cron");
        refused(Map.of("kind", "cron", "agent_definition", "checker", "cron", "0 0 6 * * *", "time_zone", "Mars/Olympus",
                "inputs", "x"), "time_zone");
        refused(Map.of("kind", "cron", "agent_definition", "checker", "cron", "0 0 6 * * *"), "inputs");
        refused(Map.of("kind", "cron", "agent_definition", "checker", "cron", "0 0 6 * * *", "inputs", "x",
                "event_filter", Map.of()), "event_filter");
        refused(Map.of("kind", "event", "agent_definition", "checker", "cron", "0 0 6 * * *"), "cron");
        var nobody = kernel.post("/api/v1/scheduler/triggers", admin, Map.of("kind", "cron", "agent_definition", "ghost",
                "cron", "0 0 6 * * *", "inputs", "x"));
        assertThat(nobody.status()).as(nobody.body()).isEqualTo(422);
        var operator = kernel.post("/api/v1/scheduler/triggers", issuer.operator(tenant), Map.of("kind", "cron",
                "agent_definition", "checker", "cron", "0 0 6 * * *", "inputs", "x"));
        assertThat(operator.status()).isEqualTo(403);
        var berlin = kernel.post("/api/v1/scheduler/triggers", admin, Map.of("kind", "cron", "agent_definition", "checker",
                "cron", "0 30 6 * * MON-FRI", "time_zone", "Europe/Berlin", "inputs", "Morning check."));
        assertThat(berlin.status()).as(berlin.body()).isEqualTo(201);
        assertThat(berlin.json().path("time_zone").asText()).isEqualTo("Europe/Berlin");
    }

    @Test
    void theCliCreatesACronTriggerAndTheAutomationListShowsItsSchedule() throws Exception {
        agent("weekly");
        CliRunner cli = kernel.cli(TempDirs.create("svc-cron").resolve("admin"), admin);
        CliRunner.Result created = cli.run("scheduler", "create", "--kind", "cron", "--agent-definition", "weekly",
                "--cron", "0 0 8 * * MON", "--time-zone", "UTC", "--inputs", "Weekly capacity review.");
        assertThat(created.exitCode()).as(created.toString()).isZero();
        assertThat(created.out()).contains("cron").contains("at 0 0 8 * * MON (UTC), next");
        assertThat(cli.run("scheduler", "create", "--kind", "cron", "--agent-definition", "weekly", "--inputs", "x")
                .exitCode()).as("--cron is required").isEqualTo(2);
        assertThat(cli.run("scheduler", "create", "--kind", "event", "--agent-definition", "weekly").exitCode())
                .as("--event-filter is required for event").isEqualTo(2);
        CliRunner.Result listed = cli.run("automation", "list");
        assertThat(listed.out()).contains("cron-trigger").contains("cron 0 0 8 * * MON (UTC), next");
    }

    @Test
    void aTriggerThatCannotFireIsPausedWithoutHoldingUpTheOthers() throws Exception {
        agent("robust");
        String good = kernel.post("/api/v1/scheduler/triggers", admin, Map.of("kind", "cron", "agent_definition", "robust",
                "cron", "*/2 * * * * *", "inputs", "good")).json().path("id").asText();
        String broken = kernel.post("/api/v1/scheduler/triggers", admin, Map.of("kind", "cron", "agent_definition",
                "robust", "cron", "*/2 * * * * *", "inputs", "broken")).json().path("id").asText();
        // a zone the JDK no longer knows (tzdata removes zones), due long ago so it sorts first in every batch
        kernel.jdbc().update("UPDATE scheduler_triggers SET time_zone = 'US/Pacific-Gone', next_fire_at = now() - "
                + "interval '1 day' WHERE id = ?::uuid", broken);
        await("the broken one paused", () -> kernel.get("/api/v1/scheduler/triggers/" + broken, admin).json().path("status")
                .asText().equals("paused"));
        await("the good one still fires", () -> kernel.jdbc().queryOne("SELECT count(*) FROM scheduler_trigger_fires "
                + "WHERE trigger_id = ?::uuid", rs -> rs.getLong(1), good).orElseThrow() >= 1);
        assertThat(kernel.jdbc().queryOne("SELECT count(*) FROM scheduler_trigger_fires WHERE trigger_id = ?::uuid",
                rs -> rs.getLong(1), broken).orElseThrow()).isZero();
        var dash = kernel.post("/api/v1/scheduler/triggers", admin, Map.of("kind", "cron", "agent_definition", "robust",
                "cron", "-", "inputs", "x"));
        assertThat(dash.status()).as(dash.body()).isEqualTo(422);
        assertThat(kernel.delete("/api/v1/scheduler/triggers/" + good, admin).status()).isEqualTo(200);
    }
}
