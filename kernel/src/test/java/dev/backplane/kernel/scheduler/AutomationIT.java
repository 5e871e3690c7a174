package dev.backplane.kernel.scheduler;

import static dev.backplane.kernel.testing.ScriptedModel.text;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.testing.BeforeKernel;
import dev.backplane.kernel.testing.CliRunner;
import dev.backplane.kernel.testing.KernelSetup;
import dev.backplane.kernel.testing.PerTestTenant;
import dev.backplane.kernel.testing.ScriptedModel;
import dev.backplane.kernel.testing.TestKernel;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /api/v1/automation} and {@code svc automation list}: an empty tenant lists nothing (a table of
 * headers, not an error); event triggers show with their state, their agent and their latest firing (the
 * run a real event started and its status); limits; tenant bounds; roles.
 */
class AutomationIT extends PerTestTenant {

    private static final String SECRET = "automation-secret-0123456789";
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static ScriptedModel model;

    @BeforeKernel
    static void start(KernelSetup setup) {
        model = ScriptedModel.forKernel(setup);
    }

    private JsonNode created(TestKernel.Response r) {
        assertThat(r.status()).as(r.body()).isEqualTo(201);
        return r.json();
    }

    private String trigger(Object filter) {
        return created(kernel.post("/api/v1/scheduler/triggers", admin, Map.of("kind", "event",
                "agent_definition", "triage", "event_filter", filter))).path("id").asText();
    }

    private JsonNode list(String token, String query) {
        var r = kernel.get("/api/v1/automation" + query, token);
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        return r.json();
    }

    @Test
    void anEmptyTenantListsNothingAsAnEmptyTable() {
        JsonNode page = list(operator, "");
        assertThat(page.path("automations").isArray()).isTrue();
        assertThat(page.path("automations")).isEmpty();
        assertThat(page.path("truncated").asBoolean()).isFalse();
        var cli = kernel.cli(operator).run("automation", "list");
        assertThat(cli.exitCode()).as(cli.toString()).isZero();
        assertThat(cli.out().strip()).isEqualTo("KIND  ID  STATUS  RUNS  LAST RUN  LAST RUN STATUS  WHAT");
        assertThat(kernel.cli(operator).run("automation", "list", "--json").out()).contains("\"automations\" : [ ]");
    }

    @Test
    void triggersShowTheirStateAgentAndTheRunTheirLatestEventStarted() throws Exception {
        created(kernel.post("/api/v1/agent-principals", admin, Map.of("name", "triage-bot")));
        created(kernel.post("/api/v1/agents", admin, Map.of("name", "triage", "identity_ref", "triage-bot")));
        String slug = created(kernel.post("/api/v1/event-sources", admin, Map.of("name", "auto-" + tenant,
                "kind", "generic-json", "auth_strategy", "static-header", "secret", SECRET))).path("slug").asText();
        String firing = trigger(Map.of("status", "firing"));
        String paused = trigger(Map.of("status", "never-sent"));
        assertThat(kernel.post("/api/v1/scheduler/triggers/" + paused + "/pause", admin, null).status()).isEqualTo(200);

        model.then(text("looked at it"));
        var sent = HTTP.send(HttpRequest.newBuilder(URI.create(kernel.url() + "/api/v1/events/ingest/" + slug))
                .header("Content-Type", "application/json").header("X-Svc-Token", SECRET)
                .POST(HttpRequest.BodyPublishers.ofString("{\"status\": \"firing\"}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(sent.statusCode()).as(sent.body()).isEqualTo(200);
        Instant deadline = Instant.now().plus(Duration.ofSeconds(40));
        JsonNode first;
        do {
            Thread.sleep(100);
            first = list(operator, "").path("automations").get(0);
        } while (!first.path("last_run_status").asText().equals("succeeded") && Instant.now().isBefore(deadline));

        JsonNode all = list(operator, "").path("automations");
        assertThat(all).hasSize(2);
        first = all.get(0);
        assertThat(first.path("kind").asText()).isEqualTo("event-trigger");
        assertThat(first.path("id").asText()).isEqualTo(firing);
        assertThat(first.path("status").asText()).isEqualTo("active");
        assertThat(first.path("runs").asText()).isEqualTo("agent:triage");
        assertThat(first.path("description").asText()).contains("firing");
        assertThat(first.path("last_run_at").isNull()).isFalse();
        assertThat(first.path("last_run_status").asText()).isEqualTo("succeeded");
        String handle = first.path("last_run_handle").asText();
        assertThat(kernel.get("/api/v1/agent-runs/" + handle, operator).json().path("status").asText())
                .isEqualTo("succeeded");
        JsonNode second = all.get(1);
        assertThat(second.path("id").asText()).isEqualTo(paused);
        assertThat(second.path("status").asText()).isEqualTo("paused");
        assertThat(second.path("last_run_at").isNull()).isTrue();
        assertThat(second.path("last_run_handle").isNull()).isTrue();

        JsonNode one = list(operator, "?limit=1");
        assertThat(one.path("automations")).hasSize(1);
        assertThat(one.path("truncated").asBoolean()).isTrue();
        for (String bad : new String[] {"?limit=0", "?limit=1001", "?limit=abc"}) {
            var r = kernel.get("/api/v1/automation" + bad, operator);
            assertThat(r.status()).as(bad + ": " + r.body()).isIn(400, 422);
        }

        CliRunner cli = kernel.cli(operator);
        var table = cli.run("automation", "list");
        assertThat(table.exitCode()).as(table.toString()).isZero();
        assertThat(table.out()).contains("KIND").contains(firing).contains(paused).contains("agent:triage")
                .contains("succeeded " + handle).contains("never");
        assertThat(cli.run("automation", "list", "--limit", "0").exitCode()).isEqualTo(2);
        var limited = cli.run("automation", "list", "--limit", "1");
        assertThat(limited.out()).contains("raise --limit").doesNotContain(paused);

        // another tenant sees none of it; read_only may not list
        assertThat(list(issuer.operator(UUID.randomUUID()), "").path("automations")).isEmpty();
        var ro = kernel.get("/api/v1/automation", issuer.token("ro-" + tenant, tenant, "read_only"));
        assertThat(ro.status()).isEqualTo(403);
        assertThat(ro.json().path("error").asText()).isEqualTo("insufficient_role");
    }
}
