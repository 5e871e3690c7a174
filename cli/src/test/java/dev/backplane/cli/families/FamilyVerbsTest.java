package dev.backplane.cli.families;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.backplane.cli.LoopbackBackplane;
import dev.backplane.cli.LoopbackBackplane.Result;
import dev.backplane.cli.common.ExitCodes;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code svc <family> <noun> <verb>} run in-process against a loopback backplane serving catalogs the ingest tool
 * built from real vendor specs: the typed names and the old op-id names reach the same operation, readable flags
 * send the exact param name, and help lists hundreds of verbs without cutting a name.
 */
class FamilyVerbsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CALL = "/api/v1/operations/call";
    private static final String OK = """
            {"status": "ok", "result": [{"Id": "4f1c", "Names": "/web"}], "extras": {}}
            """;

    @RegisterExtension
    final LoopbackBackplane backplane = new LoopbackBackplane().answer(CALL, OK);

    /** The root options and their values are skipped: {@code --context ci status} names status, not a family ci. */
    @Test
    void theCommandWordComesAfterRootOptionsAndTheirValues() {
        assertThat(FamilyVerbs.commandIndex(new String[] {"--context", "ci", "status"})).isEqualTo(2);
        assertThat(FamilyVerbs.commandIndex(new String[] {"--config", "c.json", "--backplane", "u", "--tenant", "t",
                "-v", "k8s", "pod"})).isEqualTo(7);
        assertThat(FamilyVerbs.commandIndex(new String[] {"--context", "ci"})).isEqualTo(-1);
    }

    @Test
    void dockerContainerListReachesTheSpecsOperation() throws Exception {
        backplane.answer("/api/v1/catalog/operations", RealCatalogs.catalogJson("docker"));

        Result typed = backplane.svc("docker", "container", "list", "--all", "--limit", "5", "--target", "local");

        assertThat(typed.code()).as(typed.err()).isEqualTo(ExitCodes.OK);
        assertThat(typed.out()).contains("4f1c").contains("/web");
        JsonNode sent = JSON.readTree(backplane.bodies.get(CALL));
        assertThat(sent.path("connector_id").asText()).isEqualTo("docker-1.x");
        assertThat(sent.path("op_id").asText()).isEqualTo("docker.container.container_list");
        assertThat(sent.path("target").asText()).isEqualTo("local");
        assertThat(JSON.convertValue(sent.path("params"), Map.class)).isEqualTo(Map.of("all", true, "limit", 5));

        for (String old : List.of("container_list", "container-list")) {
            backplane.bodies.clear();
            Result aliased = backplane.svc("docker", "container", old, "--all", "--target", "local");
            assertThat(aliased.code()).as(old + ": " + aliased.err()).isEqualTo(ExitCodes.OK);
            assertThat(JSON.readTree(backplane.bodies.get(CALL)).path("op_id").asText())
                    .isEqualTo("docker.container.container_list");
        }
    }

    @Test
    void argoCdSyncUnderItsShortNameAndItsOperationId() throws Exception {
        backplane.answer("/api/v1/catalog/operations", RealCatalogs.catalogJson("argocd"));

        for (List<String> words : List.of(List.of("application", "sync"),
                List.of("applicationservice", "application_service_sync"),
                List.of("application", "application-service-sync"))) {
            backplane.bodies.clear();
            List<String> args = new java.util.ArrayList<>(List.of("argocd"));
            args.addAll(words);
            args.addAll(List.of("shop", "--body", "{\"dryRun\": true}", "--target", "gitops"));
            Result r = backplane.svc(args.toArray(String[]::new));

            assertThat(r.code()).as(words + ": " + r.err()).isEqualTo(ExitCodes.OK);
            JsonNode sent = JSON.readTree(backplane.bodies.get(CALL));
            assertThat(sent.path("op_id").asText()).as(words.toString())
                    .isEqualTo("argocd.applicationservice.application_service_sync");
            assertThat(sent.path("params").path("name").asText()).isEqualTo("shop");
            assertThat(sent.path("params").path("body").path("dryRun").asBoolean()).isTrue();
        }
        Result family = backplane.svc("argocd", "--help");
        assertThat(family.out()).containsPattern("(?m)^  application +\\(also applicationservice\\) \\d+ verbs: ");
    }

    @Test
    void lookupFiltersAreReadableFlagsAndTheOldSpellingStillWorks() throws Exception {
        backplane.answer("/api/v1/catalog/operations", """
                {"revision": "1", "connectors": [{"connector_id": "inv-4.x", "impl_id": "inv", "version": "4.x",
                  "operations": [{"op_id": "inv.dcim.dcim_devices_list", "group_key": "dcim",
                    "description": "List devices", "safety_level": "read",
                    "params_schema": {"type": "object", "properties": {"name__ic": {"type": "array",
                      "items": {"type": "string"}}, "name_ic": {"type": "string"}, "target": {"type": "string"},
                      "siteId": {"type": "integer"}}}}]}]}
                """);

        Result readable = backplane.svc("inv", "dcim", "devices-list", "--name-ic", "web", "--site-id", "3",
                "--param-target", "x", "--target", "lab");
        assertThat(readable.code()).as(readable.err()).isEqualTo(ExitCodes.OK);
        // name_ic's flag before was --name-ic: it keeps it, and name__ic keeps --name--ic
        assertThat(JSON.convertValue(JSON.readTree(backplane.bodies.get(CALL)).path("params"), Map.class))
                .isEqualTo(Map.of("name_ic", "web", "siteId", 3, "target", "x"));

        Result old = backplane.svc("inv", "dcim", "dcim_devices_list", "--name--ic", "web", "--name--ic", "db",
                "--target", "lab");
        assertThat(old.code()).as(old.err()).isEqualTo(ExitCodes.OK);
        assertThat(JSON.convertValue(JSON.readTree(backplane.bodies.get(CALL)).path("params"), Map.class))
                .isEqualTo(Map.of("name__ic", List.of("web", "db")));
    }

    @Test
    void readableFlagOfALookupFilter() throws Exception {
        backplane.answer("/api/v1/catalog/operations", """
                {"revision": "1", "connectors": [{"connector_id": "inv-4.x", "impl_id": "inv", "version": "4.x",
                  "operations": [{"op_id": "inv.dcim.dcim_devices_list", "group_key": "dcim",
                    "description": "List devices", "safety_level": "read",
                    "params_schema": {"type": "object", "properties": {"name__ic": {"type": "string"},
                      "serial__nic": {"type": "string"}, "tag_id": {"type": "string"},
                      "tag-id": {"type": "string"}}}}]}]}
                """);

        Result r = backplane.svc("inv", "dcim", "devices-list", "--name-ic", "web", "--serial--nic", "x1",
                "--tag-id", "t1", "--param-tag-id", "t2", "--target", "lab");

        assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.OK);
        // tag_id and tag-id spell the same flag: the second one in the schema takes --param-tag-id
        assertThat(JSON.convertValue(JSON.readTree(backplane.bodies.get(CALL)).path("params"), Map.class))
                .isEqualTo(Map.of("name__ic", "web", "serial__nic", "x1", "tag_id", "t1", "tag-id", "t2"));
        Result help = backplane.svc("inv", "dcim", "devices-list", "--help");
        assertThat(help.out()).contains("--name-ic, --name--ic").contains("--serial-nic, --serial--nic");
    }

    @Test
    void helpListsHundredsOfVerbsWithoutCuttingANameOrShowingTheAliases() {
        backplane.answer("/api/v1/catalog/operations", RealCatalogs.catalogJson("k8s"));

        Result family = backplane.svc("k8s", "--help");
        assertThat(family.code()).as(family.err()).isEqualTo(ExitCodes.OK);
        assertThat(family.out()).contains("core-v1").contains(" verbs: ").contains("operation");

        Result noun = backplane.svc("k8s", "core-v1", "--help");
        assertThat(noun.code()).as(noun.err()).isEqualTo(ExitCodes.OK);
        VerbNames names = VerbNames.of(RealCatalogs.operations("k8s").stream()
                .map(dev.backplane.plugin.api.OperationDescriptor::opId).toList());
        List<VerbNames.Name> coreV1 = names.all().stream().filter(n -> n.noun().equals("core-v1")).toList();
        assertThat(coreV1).hasSizeGreaterThan(100);
        List<String> lines = noun.out().lines().toList();
        for (VerbNames.Name n : coreV1) {
            assertThat(lines).as(n.verb())
                    .anyMatch(l -> l.startsWith("  " + n.verb() + " ") || l.equals("  " + n.verb()));
            assertThat(lines).as("aliases stay out of the list").noneMatch(l -> l.startsWith("  " + n.verbAliases()
                    .getFirst() + " "));
        }
        assertThat(lines).allMatch(l -> l.length() <= 80 || !l.strip().contains(" "), "no line wider than 80 "
                + "unless it is one word");
    }

    @Test
    void verbHelpNamesTheOperation() {
        backplane.answer("/api/v1/catalog/operations", RealCatalogs.catalogJson("docker"));
        Result help = backplane.svc("docker", "container", "list", "--help");

        assertThat(help.code()).as(help.err()).isEqualTo(ExitCodes.OK);
        assertThat(help.out()).contains("svc docker container list").contains("docker.container.container_list")
                .contains("--all").contains("--target");
    }
}
