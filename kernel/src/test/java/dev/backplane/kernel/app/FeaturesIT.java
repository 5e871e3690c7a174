package dev.backplane.kernel.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.backplane.cli.Svc;
import dev.backplane.kernel.testing.KernelTest;
import dev.backplane.kernel.testing.TestIssuer;
import dev.backplane.kernel.testing.TestKernel;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The feature-maturity index ({@link FeatureMaturity}): {@code GET /api/v1/features} carries SPEC's labels (memory
 * and kb GA, docs experimental, the scheduler Beta) and its boundary rules, {@code svc features} prints it, and the
 * maturity labels other surfaces show — a top-level CLI command's "(Beta)", "(experimental)" or "(GA)", the docs
 * tools' "Experimental." — agree with it.
 */
@KernelTest
class FeaturesIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final UUID TENANT = UUID.randomUUID();
    private static final Pattern LABEL = Pattern.compile("\\((GA|Beta|experimental)\\)");
    private static TestIssuer issuer;
    private static TestKernel kernel;

    private static JsonNode index() {
        var r = kernel.get("/api/v1/features", issuer.token("reader", TENANT, "read_only"));
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        return r.json();
    }

    private static Map<String, JsonNode> byKey(JsonNode index) {
        Map<String, JsonNode> m = new LinkedHashMap<>();
        index.path("features").forEach(f -> m.put(f.path("key").asText(), f));
        return m;
    }

    @Test
    void theIndexCarriesSpecsLabelsAndBoundariesToAnySignedInCaller() throws Exception {
        Map<String, JsonNode> f = byKey(index());
        // SPEC "What the service does" and "Versioning", word for word
        Map<String, String> spec = Map.of("memory", "GA", "kb", "GA", "docs", "experimental", "scheduler", "Beta");
        spec.forEach((key, maturity) -> {
            assertThat(f).containsKey(key);
            assertThat(f.get(key).path("maturity").asText()).as(key).isEqualTo(maturity);
            assertThat(f.get(key).path("spec_labelled").asBoolean()).as(key).isTrue();
        });
        assertThat(f.keySet()).as("every capability SPEC lists").contains("targets", "catalog", "governance", "agents",
                "events", "conventions", "dashboards", "runbooks", "topology", "broadcast", "tenant-policies",
                "retrieval-quality", "service-grants");
        f.forEach((key, feature) -> {
            if (!spec.containsKey(key)) {
                assertThat(feature.path("spec_labelled").asBoolean()).as(key + ": SPEC labels only four").isFalse();
                assertThat(feature.path("maturity").asText()).as(key + ": outside the 1.0 promise").isNotEqualTo("GA");
            }
        });
        JsonNode boundaries = index().path("boundaries");
        assertThat(boundaries.findValuesAsText("key")).containsExactly("target-registration", "kb-deletion");
        assertThat(boundaries.get(0).path("rule").asText()).contains("list_targets");
        assertThat(index()).as("the REST answer is the index itself")
                .isEqualTo(JSON.valueToTree(FeatureMaturity.index()));

        assertThat(kernel.get("/api/v1/features", null).status()).isEqualTo(401);
        assertThat(kernel.get("/api/v1/features", issuer.mcpToken("agent", TENANT, "read_only")).status())
                .as("an MCP token reads it as svc://features, not over REST").isEqualTo(401);
    }

    @Test
    void svcFeaturesPrintsTheIndex() throws Exception {
        String token = issuer.token("cli-reader", TENANT, "read_only");
        var table = kernel.cli(token).run("features");
        assertThat(table.exitCode()).as(table.toString()).isZero();
        assertThat(table.out()).contains("FEATURE").contains("MATURITY").containsPattern("memory +GA ")
                .containsPattern("kb +GA ").containsPattern("docs +experimental ").containsPattern("scheduler +Beta ")
                .containsPattern("targets +Beta\\* ").contains("Boundaries (may move):").contains("kb-deletion: ");
        var json = kernel.cli(token).run("features", "--json");
        assertThat(json.exitCode()).as(json.toString()).isZero();
        assertThat(JSON.readTree(json.out())).isEqualTo(index());
    }

    @Test
    void maturityLabelsOnOtherSurfacesAgreeWithTheIndex() throws Exception {
        Map<String, JsonNode> f = byKey(index());
        Map<String, String> labelled = new LinkedHashMap<>();
        for (CommandLine command : Svc.commandTree().getSubcommands().values()) {
            String description = String.join(" ", command.getCommandSpec().usageMessage().description());
            Matcher m = LABEL.matcher(description);
            if (m.find()) {
                labelled.put(command.getCommandName(), m.group(1));
            }
        }
        assertThat(labelled).as("the CLI labels the Beta scheduler and the experimental docs add-on")
                .containsKeys("scheduler", "docs");
        labelled.forEach((command, label) -> {
            assertThat(f).as("svc " + command + " is labelled " + label + ": a capability of the index").containsKey(command);
            assertThat(label).as("svc " + command + "'s label").isEqualTo(f.get(command).path("maturity").asText());
        });
        var help = kernel.cli(issuer.token("help", TENANT, "read_only")).run("scheduler", "--help");
        assertThat(help.out()).contains("(" + FeatureMaturity.SCHEDULER.maturity().label() + ")");

        // the docs tools say "Experimental." to agents; the index must agree
        var r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(kernel.url() + "/mcp"))
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .header("Authorization", "Bearer " + issuer.mcpToken("agent", TENANT, "read_only"))
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}"))
                .build(), HttpResponse.BodyHandlers.ofString());
        List<String> experimental = JSON.readTree(r.body()).path("result").path("tools").findValues("description")
                .stream().map(JsonNode::asText).filter(d -> d.contains("Experimental.")).toList();
        assertThat(experimental).as("search_docs and ask_docs").hasSize(2);
        assertThat(f.get("docs").path("maturity").asText()).isEqualTo("experimental");
    }
}
