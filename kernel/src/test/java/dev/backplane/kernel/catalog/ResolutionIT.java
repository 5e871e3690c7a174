package dev.backplane.kernel.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import dev.backplane.kernel.testing.BeforeKernel;
import dev.backplane.kernel.testing.CliRunner;
import dev.backplane.kernel.testing.KernelSetup;
import dev.backplane.kernel.testing.KernelTest;
import dev.backplane.kernel.testing.TestIssuer;
import dev.backplane.kernel.testing.TestKernel;
import dev.backplane.kernel.testing.TestPlugins;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The resolver at dispatch (SPEC "Versioning"), through the real kernel, real plugin jars and a real HTTP
 * target: one product in two versions side by side (each target served by its own, whichever connector the
 * caller names, over REST, the CLI's family verbs, MCP and an approval release), several implementations of one
 * product (the target's preferred_impl_id, then the tenant's preference, then the most specific range; a true
 * tie refused), no connector serving a target, a connector disabled mid-way, and a probe that moves a target's
 * version.
 */
@KernelTest
class ResolutionIT {

    private static final String PASSWORD = "resolve-pw-" + UUID.randomUUID();
    /** What the loopback appliance answers on /version (the probe reads it). */
    private static final AtomicReference<String> VERSION = new AtomicReference<>("1.4.0");
    private static final List<String> HITS = new CopyOnWriteArrayList<>();
    private static TestIssuer issuer;
    private static TestKernel kernel;
    private static int port;

    private final UUID tenant = UUID.randomUUID();
    private final String admin = issuer.token("admin", tenant, "tenant_admin");
    private final String admin2 = issuer.token("admin2", tenant, "tenant_admin");
    private final String operator = issuer.token("op", tenant, "operator");

    @BeforeKernel
    static void start(KernelSetup setup) throws Exception {
        // one product, two releases of its implementation with disjoint ranges (same op ids)
        setup.plugin(TestPlugins.connector("appl", "1.x").product("appl").ranges("1.x").operations(6).httpProbe(false));
        setup.plugin(TestPlugins.connector("appl", "2.x").product("appl").ranges("2.x").operations(6).httpProbe(false));
        // one product, several implementations offering the same operations
        setup.plugin(TestPlugins.connector("dual", "3.x").product("dual").ranges("3.x").httpProbe(false));
        setup.plugin(TestPlugins.connector("dual-modern", "1.x").product("dual").ranges("1.x").opPrefix("dual")
                .httpProbe(false));
        setup.plugin(TestPlugins.connector("dual-legacy", "1.x").product("dual").ranges(">=1 <2").opPrefix("dual")
                .httpProbe(false));
        setup.plugin(TestPlugins.connector("dual-narrow", "1.x").product("dual").ranges("1.2.x").opPrefix("dual")
                .httpProbe(false));
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        String expected = "Basic " + Base64.getEncoder().encodeToString(("svc:" + PASSWORD)
                .getBytes(StandardCharsets.UTF_8));
        server.createContext("/", x -> {
            boolean ok = expected.equals(x.getRequestHeaders().getFirst("Authorization"));
            String path = x.getRequestURI().getPath();
            if (ok && !path.equals("/version")) {
                HITS.add(x.getRequestMethod() + " " + path);
            }
            byte[] body = (!ok ? "unauthorized" : path.equals("/version") ? VERSION.get() : "one\ntwo\n")
                    .getBytes(StandardCharsets.UTF_8);
            x.sendResponseHeaders(ok ? 200 : 401, body.length);
            x.getResponseBody().write(body);
            x.close();
        });
        server.start();
        port = server.getAddress().getPort();
        setup.closeAfter(() -> server.stop(0));
    }

    private void register(String name, String product, String version, Map<String, Object> more) {
        Map<String, Object> body = new HashMap<>(Map.of("name", name, "product", product, "host", "127.0.0.1",
                "port", port, "version", version, "extras", Map.of("scheme", "http")));
        body.putAll(more);
        kernel.registerTarget(admin, body);
        kernel.stageSecret(admin, name, Map.of("username", "svc", "password", PASSWORD));
    }

    private TestKernel.Response call(String token, String connectorId, String opId, String target, String params) {
        return kernel.send("POST", "/api/v1/operations/call", token, "{\"connector_id\": \"" + connectorId
                + "\", \"op_id\": \"" + opId + "\", \"target\": \"" + target + "\", \"params\": " + params + "}", Map.of());
    }

    private JsonNode ok(TestKernel.Response r) {
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        assertThat(r.json().path("status").asText()).as(r.body()).isEqualTo("ok");
        return r.json();
    }

    /** The connector the last dispatch row of {@code target} names, with its extras. */
    private JsonNode lastRow(String target) {
        return kernel.jdbc().query("SELECT json_build_object('connector_id', connector_id, 'extras', extras, "
                + "'status', result_status, 'approval', approval_request_id)::text FROM audit_rows WHERE tenant_id = ? "
                + "AND target = ? ORDER BY occurred_at DESC LIMIT 1", rs -> {
                    try {
                        return dev.backplane.kernel.util.JsonMapping.mapper().readTree(rs.getString(1));
                    } catch (java.io.IOException e) {
                        throw new IllegalStateException(e);
                    }
                }, tenant, target).getFirst();
    }

    private String servedBy(String connectorId, String opId, String target) {
        JsonNode env = ok(call(operator, connectorId, opId, target, "{}"));
        JsonNode row = lastRow(target);
        String resolved = env.path("extras").path("resolved_connector_id").asText(connectorId);
        assertThat(row.path("connector_id").asText()).as("the audit row names the connector that served the call")
                .isEqualTo(resolved);
        if (!resolved.equals(connectorId)) {
            assertThat(env.path("extras").path("requested_connector_id").asText()).isEqualTo(connectorId);
            assertThat(row.path("extras").path("requested_connector_id").asText()).isEqualTo(connectorId);
            assertThat(row.path("extras").path("resolution").asText()).contains(resolved);
        } else {
            assertThat(row.path("extras").has("requested_connector_id")).isFalse();
        }
        return resolved;
    }

    @Test
    void twoVersionsOfOneProductEachServeTheirOwnTargetsOnEverySurface() throws Exception {
        kernel.enableConnector(admin, "appl-1.x");
        kernel.enableConnector(admin, "appl-2.x");
        register("old", "appl", "1.4", Map.of());
        register("new", "appl", "2.1", Map.of());

        // REST: whichever release the caller names, each target is served by the release that supports it
        assertThat(servedBy("appl-2.x", "appl.item0.list", "old")).isEqualTo("appl-1.x");
        assertThat(servedBy("appl-1.x", "appl.item0.list", "old")).isEqualTo("appl-1.x");
        assertThat(servedBy("appl-1.x", "appl.item0.list", "new")).isEqualTo("appl-2.x");
        assertThat(servedBy("appl-2.x", "appl.item0.list", "new")).isEqualTo("appl-2.x");

        // the CLI's family verbs: the union of both releases' verbs, and the kernel decides per --target
        CliRunner cli = kernel.cli(operator);
        CliRunner.Result help = cli.run("appl", "--help");
        assertThat(help.exitCode()).as(help.toString()).isZero();
        assertThat(help.out()).contains("appl-2.x").contains("appl-1.x").contains("item0");
        CliRunner.Result old = cli.run("appl", "item0", "list", "--target", "old");
        assertThat(old.exitCode()).as(old.toString()).isZero();
        assertThat(old.err()).contains("served by appl-1.x");
        assertThat(lastRow("old").path("connector_id").asText()).isEqualTo("appl-1.x");
        CliRunner.Result fresh = cli.run("appl", "item0", "list", "--target", "new");
        assertThat(fresh.exitCode()).as(fresh.toString()).isZero();
        assertThat(fresh.err()).doesNotContain("served by");
        assertThat(lastRow("new").path("connector_id").asText()).isEqualTo("appl-2.x");

        // MCP call_operation
        String mcp = issuer.mcpToken("op", tenant, "operator");
        var viaMcp = mcpCall(mcp, "{\"connector_id\": \"appl-2.x\", \"op_id\": \"appl.item0.list\", \"target\": \"old\"}");
        assertThat(viaMcp.status()).as(viaMcp.body()).isEqualTo(200);
        assertThat(viaMcp.body()).contains("resolved_connector_id").contains("appl-1.x");
        assertThat(lastRow("old").path("connector_id").asText()).isEqualTo("appl-1.x");

        // an approval release: parked through the resolved release, released through it
        assertThat(kernel.patch("/api/v1/connectors/appl-1.x/operations/appl.item5.delete", admin,
                "{\"is_enabled\": true, \"safety_level\": \"caution\"}").status()).isEqualTo(200);
        JsonNode parked = call(operator, "appl-2.x", "appl.item5.delete", "old", "{\"name\": \"gone\"}").json();
        assertThat(parked.path("status").asText()).as(parked.toString()).isEqualTo("awaiting_approval");
        assertThat(parked.path("extras").path("resolved_connector_id").asText()).isEqualTo("appl-1.x");
        String id = parked.path("extras").path("approval_request_id").asText();
        assertThat(kernel.get("/api/v1/approvals/" + id, operator).json().path("connector_id").asText())
                .isEqualTo("appl-1.x");
        int before = HITS.size();
        var approved = kernel.send("POST", "/api/v1/approvals/" + id + "/approve", admin2, "{}", Map.of());
        assertThat(approved.status()).as(approved.body()).isEqualTo(200);
        assertThat(approved.json().path("result").path("status").asText()).as(approved.body()).isEqualTo("ok");
        assertThat(HITS.subList(before, HITS.size())).containsExactly("DELETE /items/gone");
        JsonNode executed = lastRow("old");
        assertThat(executed.path("connector_id").asText()).isEqualTo("appl-1.x");
        assertThat(executed.path("approval").asText()).isEqualTo(id);
    }

    @Test
    void aProbeThatMovesTheVersionReResolvesAndAnApprovalThroughTheOldReleaseDoesNotRun() {
        kernel.enableConnector(admin, "appl-1.x");
        kernel.enableConnector(admin, "appl-2.x");
        register("moving", "appl", "1.4", Map.of());
        assertThat(kernel.patch("/api/v1/connectors/appl-1.x/operations/appl.item5.delete", admin,
                "{\"is_enabled\": true, \"safety_level\": \"caution\"}").status()).isEqualTo(200);
        assertThat(kernel.patch("/api/v1/connectors/appl-2.x/operations/appl.item5.delete", admin,
                "{\"is_enabled\": true, \"safety_level\": \"caution\"}").status()).isEqualTo(200);
        assertThat(servedBy("appl-2.x", "appl.item0.list", "moving")).isEqualTo("appl-1.x");
        JsonNode parked = call(operator, "appl-1.x", "appl.item5.delete", "moving", "{\"name\": \"x\"}").json();
        assertThat(parked.path("status").asText()).isEqualTo("awaiting_approval");
        String id = parked.path("extras").path("approval_request_id").asText();

        // the appliance was upgraded; a probe finds 2.3 and the next call goes through appl-2.x
        VERSION.set("2.3.0");
        try {
            var probe = kernel.send("POST", "/api/v1/targets/moving/probe", operator, null, Map.of());
            assertThat(probe.status()).as(probe.body()).isEqualTo(200);
            assertThat(probe.json().path("fingerprint").path("version").asText()).isEqualTo("2.3.0");
        } finally {
            VERSION.set("1.4.0");
        }
        assertThat(servedBy("appl-1.x", "appl.item0.list", "moving")).isEqualTo("appl-2.x");
        JsonNode explained = kernel.get("/api/v1/targets/moving/resolution", operator).json();
        assertThat(explained.path("version").asText()).isEqualTo("2.3.0");
        assertThat(explained.path("version_source").asText()).isEqualTo("fingerprint");
        assertThat(explained.path("connector_id").asText()).isEqualTo("appl-2.x");

        // what was approved is a call through appl-1.x, which no longer serves the target: it does not run
        int before = HITS.size();
        var approved = kernel.send("POST", "/api/v1/approvals/" + id + "/approve", admin2, "{}", Map.of());
        assertThat(approved.status()).as(approved.body()).isEqualTo(200);
        JsonNode result = approved.json().path("result");
        assertThat(result.path("status").asText()).as(approved.body()).isEqualTo("error");
        assertThat(result.path("extras").path("error_code").asText()).isEqualTo("resolution_changed");
        assertThat(result.path("error").asText()).contains("appl-1.x").contains("re-issue");
        assertThat(HITS).hasSize(before);
    }

    @Test
    void preferenceOrderIsTheTargetsThenTheTenantsThenTheMostSpecificRange() throws Exception {
        for (String c : List.of("dual-3.x", "dual-modern-1.x", "dual-legacy-1.x", "dual-narrow-1.x")) {
            kernel.enableConnector(admin, c);
        }
        register("d-free", "dual", "1.2.5", Map.of());
        register("d-pinned", "dual", "1.2.5", Map.of("preferred_impl_id", "dual-modern"));
        register("d-tie", "dual", "1.7", Map.of());

        // the named dual-3.x does not serve 1.x: the default rule picks the most specific range
        assertThat(servedBy("dual-3.x", "dual.item0.list", "d-free")).isEqualTo("dual-narrow-1.x");
        assertThat(lastRow("d-free").path("extras").path("resolution").asText()).contains("most specific");
        // two different implementations tie on 1.7: refused, naming them and how to break the tie
        var tie = call(operator, "dual-3.x", "dual.item0.list", "d-tie", "{}");
        assertThat(tie.status()).as(tie.body()).isEqualTo(409);
        assertThat(tie.json().path("error").asText()).isEqualTo("ambiguous_connector");
        assertThat(tie.json().path("extras").path("candidates").toString()).contains("dual-legacy-1.x")
                .contains("dual-modern-1.x");
        assertThat(tie.json().path("message").asText()).contains("svc connector prefer dual");

        // the tenant's preference (set through the CLI) comes next, and changes the next call
        CliRunner cli = kernel.cli(admin);
        CliRunner.Result prefer = cli.run("connector", "prefer", "dual", "dual-legacy");
        assertThat(prefer.exitCode()).as(prefer.toString()).isZero();
        assertThat(servedBy("dual-3.x", "dual.item0.list", "d-free")).isEqualTo("dual-legacy-1.x");
        assertThat(servedBy("dual-3.x", "dual.item0.list", "d-tie")).isEqualTo("dual-legacy-1.x");
        // the target's own preferred_impl_id beats the tenant's
        assertThat(servedBy("dual-3.x", "dual.item0.list", "d-pinned")).isEqualTo("dual-modern-1.x");
        CliRunner.Result listed = cli.run("connector", "preferences");
        assertThat(listed.out()).contains("dual").contains("dual-legacy").contains("admin");
        CliRunner.Result described = cli.run("targets", "describe", "d-free");
        assertThat(described.exitCode()).as(described.toString()).isZero();
        assertThat(described.out()).contains("served by").contains("dual-legacy-1.x").contains("tenant")
                .contains("dual-3.x: supports [3.x], not version 1.2.5");

        // the governance trail has the change; a second tenant_admin clears it and the default rule is back
        assertThat(kernel.jdbc().query("SELECT extras->'change'->>'impl_id' FROM audit_rows WHERE tenant_id = ? AND "
                + "op_id = 'svc.governance.PUT /api/v1/connector-preferences/{product}'", rs -> rs.getString(1), tenant))
                .containsExactly("dual-legacy");
        assertThat(kernel.delete("/api/v1/connector-preferences/dual", admin2).status()).isEqualTo(200);
        assertThat(servedBy("dual-3.x", "dual.item0.list", "d-free")).isEqualTo("dual-narrow-1.x");
        var again = kernel.delete("/api/v1/connector-preferences/dual", admin2);
        assertThat(again.status()).isEqualTo(404);
        assertThat(again.json().path("error").asText()).isEqualTo("preference_not_found");

        // bad preferences get SPEC's errors; only a tenant_admin sets one
        var product = kernel.put("/api/v1/connector-preferences/nosuch", admin, Map.of("impl_id", "dual-legacy"));
        assertThat(product.status()).isEqualTo(422);
        assertThat(product.json().path("error").asText()).isEqualTo("unknown_product");
        var impl = kernel.put("/api/v1/connector-preferences/dual", admin, Map.of("impl_id", "appl"));
        assertThat(impl.status()).isEqualTo(422);
        assertThat(impl.json().path("error").asText()).isEqualTo("unknown_impl");
        assertThat(impl.json().path("extras").path("valid_impl_ids").toString()).contains("dual-legacy");
        assertThat(kernel.put("/api/v1/connector-preferences/dual", admin, Map.of()).status()).isEqualTo(422);
        assertThat(kernel.put("/api/v1/connector-preferences/dual", operator, Map.of("impl_id", "dual-legacy"))
                .status()).isEqualTo(403);
    }

    @Test
    void noConnectorNamesTheCandidatesAndADisabledConnectorSaysSo() {
        kernel.enableConnector(admin, "appl-1.x");
        kernel.enableConnector(admin, "appl-2.x");
        register("future", "appl", "3.0", Map.of());
        register("two", "appl", "2.1", Map.of());
        int before = HITS.size();
        var none = call(operator, "appl-1.x", "appl.item0.list", "future", "{}");
        assertThat(none.status()).as(none.body()).isEqualTo(501);
        assertThat(none.json().path("error").asText()).isEqualTo("no_connector");
        assertThat(none.json().path("message").asText()).contains("appl").contains("3.0");
        JsonNode candidates = none.json().path("extras").path("candidates");
        assertThat(candidates.findValuesAsText("connector_id")).containsExactly("appl-1.x", "appl-2.x");
        assertThat(candidates.findValuesAsText("reason")).containsExactly("supports [1.x], not version 3.0",
                "supports [2.x], not version 3.0");
        var explained = kernel.get("/api/v1/targets/future/resolution", operator).json();
        assertThat(explained.path("error_code").asText()).isEqualTo("no_connector");
        assertThat(explained.path("connector_id").isNull() || explained.path("connector_id").isMissingNode()).isTrue();

        assertThat(servedBy("appl-1.x", "appl.item0.list", "two")).isEqualTo("appl-2.x");
        assertThat(kernel.post("/api/v1/connectors/appl-2.x/disable", admin, null).status()).isEqualTo(200);
        // named, the disabled release is refused by the gate as ever; named otherwise, nothing serves and it says why
        JsonNode disabled = call(operator, "appl-2.x", "appl.item0.list", "two", "{}").json();
        assertThat(disabled.path("status").asText()).as(disabled.toString()).isEqualTo("denied");
        assertThat(disabled.path("error").asText()).contains("appl.item0.list").contains("not enabled");
        assertThat(lastRow("two").path("connector_id").asText()).isEqualTo("appl-2.x");
        var gone = call(operator, "appl-1.x", "appl.item0.list", "two", "{}");
        assertThat(gone.status()).as(gone.body()).isEqualTo(501);
        assertThat(gone.json().path("error").asText()).isEqualTo("no_connector");
        assertThat(gone.json().path("extras").path("candidates").toString())
                .contains("appl-2.x").contains("is not enabled for this tenant (disabled)");
        assertThat(HITS.size()).as("no refusal reached the target").isEqualTo(before + 1);

        // a connector of another product: the caller's mistake, with what would serve
        var mismatch = call(operator, "dual-3.x", "dual.item0.list", "two", "{}");
        assertThat(mismatch.status()).isEqualTo(422);
        assertThat(mismatch.json().path("error").asText()).isEqualTo("connector_product_mismatch");
    }

    private TestKernel.Response mcpCall(String token, String arguments) {
        String body = "{\"jsonrpc\":\"2.0\",\"id\":\"r1\",\"method\":\"tools/call\",\"params\":{\"name\":\"call_operation\","
                + "\"arguments\":" + arguments + ",\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                + "\"io.modelcontextprotocol/clientCapabilities\":{}}}}";
        return kernel.send("POST", "/mcp", token, body, Map.of("MCP-Protocol-Version", "2026-07-28",
                "Mcp-Method", "tools/call", "Mcp-Name", "call_operation", "Accept", "application/json, text/event-stream"));
    }
}
