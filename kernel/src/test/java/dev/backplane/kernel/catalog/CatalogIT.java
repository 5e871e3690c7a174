package dev.backplane.kernel.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.testing.BeforeKernel;
import dev.backplane.kernel.testing.CliRunner;
import dev.backplane.kernel.testing.KernelSetup;
import dev.backplane.kernel.testing.PerTestTenant;
import dev.backplane.kernel.testing.TempDirs;
import dev.backplane.kernel.testing.TestKernel;
import dev.backplane.kernel.testing.TestPlugins;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The catalog over real HTTP with plugin jars built for the test: listing, review, default-deny, search. */
class CatalogIT extends PerTestTenant {

    @BeforeKernel
    static void plugins(KernelSetup setup) {
        setup.plugin(TestPlugins.connector("demo", "2.x").product("demo").ranges("2.x").operations(6));
        setup.plugin(TestPlugins.connector("demo-legacy", "1.x").product("demo").ranges(">=1.5 <2"));
        setup.plugin(TestPlugins.connector("old", "1.x").manifest("Plugin-Api-Version", "0.9"));
        setup.setting("SVC_TARGET_SSRF_ALLOWLIST", null);
    }

    private TestKernel.Response post(String path, String token) {
        return kernel.post(path, token, null);
    }

    private TestKernel.Response patch(String path, String token, String body) {
        return kernel.patch(path, token, body);
    }

    @Test
    void listShowsLoadedConnectorsStagedAndBrokenPluginsWithTheirReason() {
        var r = kernel.get("/api/v1/connectors", operator);
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        Map<String, JsonNode> byId = new HashMap<>();
        r.json().forEach(c -> byId.put(c.path("connector_id").asText(), c));
        assertThat(byId).containsKeys("demo-2.x", "demo-legacy-1.x", "old-1.x");
        assertThat(byId.get("demo-2.x").path("status").asText()).isEqualTo("staged");
        assertThat(byId.get("demo-2.x").path("operation_count").asInt()).isEqualTo(6);
        assertThat(byId.get("demo-2.x").path("enabled_op_count").asInt()).isZero();
        assertThat(byId.get("old-1.x").path("status").asText()).isEqualTo("broken");
        assertThat(byId.get("old-1.x").path("reason").asText()).contains("built for plugin-api 0.9");

        var broken = kernel.get("/api/v1/connectors?status=broken", operator);
        assertThat(broken.json()).hasSize(1);
        var bad = kernel.get("/api/v1/connectors?status=sideways", operator);
        assertThat(bad.status()).isEqualTo(422);
        assertThat(bad.json().path("error").asText()).isEqualTo("invalid_status");
    }

    @Test
    void aBareProductNameIsUnknownConnectorListingTheValidIds() {
        var r = kernel.get("/api/v1/connectors/demo", operator);
        assertThat(r.status()).isEqualTo(404);
        assertThat(r.json().path("error").asText()).isEqualTo("unknown_connector");
        assertThat(r.json().path("message").asText()).contains("demo-2.x");
        assertThat(r.json().path("extras").path("valid_connector_ids").toString())
                .contains("demo-2.x", "demo-legacy-1.x");
    }

    @Test
    void reviewIsDefaultDenyAndEnableReadsOpensOnlyReads() {
        var review = kernel.get("/api/v1/connectors/demo-2.x", operator).json();
        assertThat(review.path("connector").path("status").asText()).isEqualTo("staged");
        review.path("operations").forEach(op -> assertThat(op.path("is_enabled").asBoolean()).isFalse());
        assertThat(review.path("secret_fields").toString()).contains("username", "password");

        assertThat(post("/api/v1/connectors/demo-2.x/enable-reads", operator).status())
                .as("review changes need tenant_admin").isEqualTo(403);
        var reads = post("/api/v1/connectors/demo-2.x/enable-reads", admin);
        assertThat(reads.status()).as(reads.body()).isEqualTo(200);
        assertThat(reads.json().path("operations_changed").asInt()).isEqualTo(4);
        assertThat(reads.json().path("status").asText()).as("enable-reads leaves the status").isEqualTo("staged");
        assertThat(post("/api/v1/connectors/demo-2.x/enable-reads", admin).json().path("operations_changed").asInt())
                .as("idempotent").isZero();

        JsonNode ops = kernel.get("/api/v1/connectors/demo-2.x", operator).json().path("operations");
        ops.forEach(op -> assertThat(op.path("is_enabled").asBoolean())
                .as(op.path("op_id").asText()).isEqualTo(op.path("method").asText().equals("GET")));

        JsonNode groups = kernel.get("/api/v1/connectors/demo-2.x/groups", operator).json();
        JsonNode items = groups.get(0);
        assertThat(items.path("group_key").asText()).isEqualTo("items");
        assertThat(items.path("operation_count").asInt()).isEqualTo(3);
        assertThat(items.path("enabled_op_count").asInt()).isEqualTo(2);
        assertThat(items.path("partial").asBoolean()).isTrue();
    }

    @Test
    void statusTransitionsAndOverridesSurviveDisableEnableAndARestart() {
        assertThat(post("/api/v1/connectors/demo-legacy-1.x/disable", admin).status())
                .as("a staged connector cannot be disabled").isEqualTo(409);
        var enabled = post("/api/v1/connectors/demo-legacy-1.x/enable", admin);
        assertThat(enabled.json().path("previous_status").asText()).isEqualTo("staged");
        assertThat(enabled.json().path("status").asText()).isEqualTo("enabled");

        var edit = patch("/api/v1/connectors/demo-legacy-1.x/operations/demo_legacy.item2.delete", admin,
                "{\"is_enabled\": true, \"requires_approval\": false, \"safety_level\": \"caution\", "
                        + "\"custom_description\": \"Remove a stale item\"}");
        assertThat(edit.status()).as(edit.body()).isEqualTo(200);
        assertThat(edit.json().path("description").asText()).isEqualTo("Remove a stale item");
        assertThat(edit.json().path("safety_level").asText()).isEqualTo("caution");

        assertThat(post("/api/v1/connectors/demo-legacy-1.x/disable", admin).json().path("status").asText())
                .isEqualTo("disabled");
        assertThat(post("/api/v1/connectors/demo-legacy-1.x/enable", admin).json().path("previous_status").asText())
                .isEqualTo("disabled");

        var group = patch("/api/v1/connectors/demo-legacy-1.x/groups/items", admin,
                "{\"name\": \"Stock items\", \"when_to_use\": \"inventory questions\"}");
        assertThat(group.status()).as(group.body()).isEqualTo(200);
        assertThat(group.json().path("display_name").asText()).isEqualTo("Stock items");

        // upgrade the plugin: same connector id, new jar version with more operations, then restart
        kernel.restart(() -> TestPlugins.build(kernel.pluginDir(), TestPlugins.connector("demo-legacy", "1.x")
                .product("demo").ranges(">=1.5 <2").manifest("Plugin-Version", "1.1.0").operations(5)));
        JsonNode review = kernel.get("/api/v1/connectors/demo-legacy-1.x", admin).json();
        assertThat(review.path("connector").path("plugin_version").asText()).isEqualTo("1.1.0");
        assertThat(review.path("connector").path("operation_count").asInt()).isEqualTo(5);
        assertThat(review.path("connector").path("status").asText()).isEqualTo("enabled");
        JsonNode op = null;
        for (JsonNode o : review.path("operations")) {
            if (o.path("op_id").asText().equals("demo_legacy.item2.delete")) {
                op = o;
            }
        }
        assertThat(op).isNotNull();
        assertThat(op.path("is_enabled").asBoolean()).isTrue();
        assertThat(op.path("requires_approval").asBoolean()).isFalse();
        assertThat(op.path("custom_description").asText()).isEqualTo("Remove a stale item");
        assertThat(review.path("groups").get(0).path("when_to_use").asText()).isEqualTo("inventory questions");

        var cleared = patch("/api/v1/connectors/demo-legacy-1.x/operations/demo_legacy.item2.delete", admin,
                "{\"custom_description\": \"\"}");
        assertThat(cleared.json().path("description").asText()).startsWith("Delete one item");
    }

    @Test
    void reviewStateBelongsToTheTenant() {
        assertThat(post("/api/v1/connectors/demo-2.x/enable", admin).status()).isEqualTo(200);
        UUID other = UUID.randomUUID();
        var theirs = kernel.get("/api/v1/connectors/demo-2.x", issuer.token("x", other, "read_only")).json();
        assertThat(theirs.path("connector").path("status").asText()).isEqualTo("staged");
    }

    @Test
    void badEditsAreClearErrors() {
        var unknownOp = patch("/api/v1/connectors/demo-2.x/operations/demo.nope.get", admin, "{\"is_enabled\": true}");
        assertThat(unknownOp.status()).isEqualTo(404);
        assertThat(unknownOp.json().path("error").asText()).isEqualTo("unknown_operation");
        var badSafety = patch("/api/v1/connectors/demo-2.x/operations/demo.item0.list", admin, "{\"safety_level\": \"meh\"}");
        assertThat(badSafety.status()).isEqualTo(422);
        var empty = patch("/api/v1/connectors/demo-2.x/operations/demo.item0.list", admin, "{}");
        assertThat(empty.status()).isEqualTo(422);
        var unknownField = patch("/api/v1/connectors/demo-2.x/operations/demo.item0.list", admin, "{\"enabled\": true}");
        assertThat(unknownField.status()).isEqualTo(422);
        var unknownGroup = patch("/api/v1/connectors/demo-2.x/groups/nope", admin, "{\"name\": \"x\"}");
        assertThat(unknownGroup.status()).isEqualTo(404);
        assertThat(unknownGroup.json().path("extras").path("valid_groups").toString()).contains("items", "admin");
        assertThat(patch("/api/v1/connectors/demo-2.x/groups/items", admin, "{\"name\": \"  \"}").status()).isEqualTo(422);
    }

    @Test
    void searchRanksNarrowsByGroupAndClampsTheLimit() {
        JsonNode r = kernel.get("/api/v1/connectors/demo-2.x/operations?query=delete%20item", operator).json();
        assertThat(r.path("hits").get(0).path("op_id").asText()).endsWith(".delete");
        JsonNode hit = r.path("hits").get(0);
        assertThat(hit.has("safety_level")).isTrue();
        assertThat(hit.path("requires_approval").asBoolean()).isTrue();

        JsonNode narrowed = kernel.get("/api/v1/connectors/demo-2.x/operations?query=item&group=admin", operator).json();
        narrowed.path("hits").forEach(h -> assertThat(h.path("group_key").asText()).isEqualTo("admin"));
        assertThat(narrowed.path("hits").size()).isEqualTo(3);

        JsonNode unknownGroup = kernel.get("/api/v1/connectors/demo-2.x/operations?query=item&group=nope", operator).json();
        assertThat(unknownGroup.path("hits").size()).as("an unknown group narrows silently to zero").isZero();

        assertThat(kernel.get("/api/v1/connectors/demo-2.x/operations?query=item&limit=0", operator).json()
                .path("limit").asInt()).isEqualTo(1);
        assertThat(kernel.get("/api/v1/connectors/demo-2.x/operations?query=item&limit=500", operator).json()
                .path("limit").asInt()).isEqualTo(50);
        assertThat(kernel.get("/api/v1/connectors/demo-2.x/operations?query=item&limit=ten", operator).status())
                .isEqualTo(422);
        assertThat(kernel.get("/api/v1/connectors/demo-2.x/operations", operator).status()).isEqualTo(422);
        assertThat(kernel.get("/api/v1/connectors/demo-2.x/operations?query=zebra", operator).json()
                .path("hits").size()).isZero();
    }

    @Test
    void theCliDrivesTheReview() throws Exception {
        CliRunner adm = kernel.cli(admin);
        CliRunner.Result list = adm.run("connector", "list");
        assertThat(list.exitCode()).as(list.toString()).isZero();
        assertThat(list.out()).contains("demo-2.x", "staged", "0/6").contains("broken", "built for plugin-api 0.9");

        CliRunner.Result noConfirm = adm.run("connector", "enable", "demo-2.x");
        assertThat(noConfirm.exitCode()).isEqualTo(2);
        assertThat(noConfirm.err()).contains("--confirm");
        assertThat(adm.run("connector", "enable-reads", "demo-2.x", "--confirm").out()).contains("4 read operation(s)");
        assertThat(adm.run("connector", "enable", "demo-2.x", "--confirm").out()).contains("staged -> enabled");

        CliRunner.Result edit = adm.run("connector", "edit-op", "demo-2.x", "demo.item2.delete", "--enable",
                "--no-requires-approval", "--safety", "caution", "--custom-description", "Drop an item");
        assertThat(edit.exitCode()).as(edit.toString()).isZero();
        assertThat(edit.out()).contains("demo.item2.delete: enabled, caution — Drop an item");
        assertThat(adm.run("connector", "edit-op", "demo-2.x", "demo.item2.delete", "--enable", "--disable").exitCode())
                .isEqualTo(2);

        Path hint = TempDirs.file("hint", ".txt");
        Files.writeString(hint, "Use for stock questions\n");
        CliRunner.Result group = adm.run("connector", "edit-group", "demo-2.x", "items", "--when-to-use", "@" + hint);
        assertThat(group.out()).contains("Use for stock questions");

        CliRunner.Result review = adm.run("connector", "review", "demo-2.x");
        assertThat(review.out()).contains("status enabled", "5/6 operations enabled", "Drop an item");

        CliRunner.Result search = adm.run("operation", "search", "demo-2.x", "delete", "--limit", "2");
        assertThat(search.exitCode()).as(search.toString()).isZero();
        assertThat(search.out().lines().skip(1).findFirst().orElse("")).startsWith("demo.item");
        assertThat(adm.run("operation", "search", "demo-2.x", "item", "--limit", "51").exitCode()).isEqualTo(2);
        CliRunner.Result json = adm.run("operation", "groups", "demo-2.x", "--json");
        assertThat(json.out()).contains("\"group_key\" : \"items\"");
        assertThat(adm.run("connector", "catalog", "list").out()).contains("demo", "demo-legacy-1.x");

        CliRunner.Result unknown = adm.run("connector", "review", "demo");
        assertThat(unknown.exitCode()).isEqualTo(1);
        assertThat(unknown.err()).contains("unknown_connector", "demo-2.x");

        CliRunner.Result denied = kernel.cli(operator).run("connector", "enable", "demo-legacy-1.x", "--confirm");
        assertThat(denied.exitCode()).isEqualTo(3);
        assertThat(denied.err()).contains("insufficient_role");
    }

    @Test
    void catalogListsProductsAndTheirImplementations() {
        JsonNode catalog = kernel.get("/api/v1/catalog", operator).json();
        assertThat(catalog).isNotEmpty();
        JsonNode demo = catalog.get(0);
        assertThat(demo.path("product").asText()).isEqualTo("demo");
        assertThat(demo.path("implementations").toString()).contains("demo-2.x", "demo-legacy-1.x", ">=1.5 <2");
    }
}
