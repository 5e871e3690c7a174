package dev.backplane.kernel.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.testing.BeforeKernel;
import dev.backplane.kernel.testing.CliRunner;
import dev.backplane.kernel.testing.KernelSetup;
import dev.backplane.kernel.testing.LoopbackHttp;
import dev.backplane.kernel.testing.LoopbackTarget;
import dev.backplane.kernel.testing.PerTestTenant;
import dev.backplane.kernel.testing.TestKernel;
import dev.backplane.kernel.testing.TestPlugins;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Shell completion's names ({@code svc __complete <kind>}) from a real kernel's answers: every kind the completion
 * scripts ask for, in the caller's tenant only. The CLI's own tests cover the timeout, the cache and the scripts.
 */
class CompletionNamesIT extends PerTestTenant {

    private static LoopbackTarget target;

    static final String TEMPLATE = """
            title: Look at the items
            description: When items are stuck.
            target_kind: cpl
            steps:
              - name: look
                instruction: List the items.
                operation:
                  connector_id: cpl-1.x
                  op_id: cpl.item0.list
                  params: {count: 2}
                verify: Are they listed?
            """;

    @BeforeKernel
    static void start(KernelSetup setup) {
        target = LoopbackTarget.start(setup, x -> LoopbackHttp.itemsOr(x, "{\"deleted\": true}"));
        setup.plugin(TestPlugins.connector("cpl", "1.x").product("cpl").ranges("*").operations(3).httpProbe(false));
    }

    @Test
    void everyKindHasTheNamesOfTheCallersTenant() {
        target.register(kernel, admin, "web-1", "cpl");
        target.register(kernel, admin, "web-2", "cpl");
        kernel.enableConnector(admin, "cpl-1.x");
        ok(kernel.patch("/api/v1/connectors/cpl-1.x/operations/cpl.item2.delete", admin,
                Map.of("is_enabled", true, "safety_level", "caution")), 200);
        JsonNode parked = ok(kernel.post("/api/v1/operations/call", operator, Map.of("connector_id", "cpl-1.x",
                "op_id", "cpl.item2.delete", "target", "web-1", "params", Map.of("name", "stuck"))), 200);
        assertThat(parked.path("status").asText()).as(parked.toString()).isEqualTo("awaiting_approval");
        String approval = parked.path("extras").path("approval_request_id").asText();
        ok(kernel.post("/api/v1/agent-principals", admin, Map.of("name", "triage-bot")), 201);
        ok(kernel.post("/api/v1/agents", admin, Map.of("name", "triage", "identity_ref", "triage-bot")), 201);
        ok(kernel.post("/api/v1/runbooks/templates", admin, Map.of("slug", "look-at-items", "yaml", TEMPLATE)), 201);
        String source = ok(kernel.post("/api/v1/event-sources", admin, Map.of("name", "alerts", "kind", "generic-json",
                "auth_strategy", "static-header", "secret", "s3cret-" + UUID.randomUUID())), 201).path("slug").asText();
        // another tenant's names are not offered
        UUID other = UUID.randomUUID();
        target.register(kernel, issuer.tenantAdmin(other), "web-other", "cpl");

        CliRunner cli = kernel.cli(operator).env("SVC_COMPLETION_TIMEOUT_MS", "10000"); // a loaded machine is slow

        assertThat(names(cli, "target")).containsExactly("web-1", "web-2");
        assertThat(names(cli, "target", "web-2")).containsExactly("web-2");
        assertThat(names(cli, "connector")).contains("cpl-1.x");
        assertThat(names(cli, "op-id", "cpl.")).contains("cpl.item0.list", "cpl.item1.get", "cpl.item2.delete");
        assertThat(names(cli, "approval")).containsExactly(approval);
        assertThat(names(cli, "agent")).containsExactly("triage");
        assertThat(names(cli, "runbook")).containsExactly("look-at-items");
        assertThat(names(cli, "event-source")).containsExactly(source);
    }

    private static List<String> names(CliRunner cli, String... args) {
        String[] all = new String[args.length + 1];
        all[0] = "__complete";
        System.arraycopy(args, 0, all, 1, args.length);
        CliRunner.Result r = cli.run(all);
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.err()).as(r.toString()).isEmpty();
        return r.out().lines().toList();
    }

    private static JsonNode ok(TestKernel.Response r, int status) {
        assertThat(r.status()).as(r.body()).isEqualTo(status);
        return r.json();
    }
}
