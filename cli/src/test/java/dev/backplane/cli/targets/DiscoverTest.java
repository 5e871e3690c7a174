package dev.backplane.cli.targets;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.backplane.cli.LoopbackBackplane;
import dev.backplane.cli.LoopbackBackplane.Result;
import dev.backplane.cli.common.ExitCodes;
import dev.backplane.cli.common.Http;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code svc targets discover} prints the answer as a targets.yaml plan: the candidates under {@code targets},
 * exactly as the server sent them (strings stay strings: a version 9.1 is not read back as a number, a PEM
 * pin survives whole), the seed and product as comments, and each member not importable as it is commented
 * out with its reason. {@code --json} is the server's document.
 */
class DiscoverTest {

    static final String PLAN = """
            {"product": "proxmox", "seed_target": "lab1", "connector_id": "proxmox-9.x",
             "candidates": [{"name": "pve2", "product": "proxmox", "host": "192.168.10.12", "version": "9.1",
                             "tls_ca_pin": "-----BEGIN CERTIFICATE-----\\nMIIB\\n-----END CERTIFICATE-----\\n",
                             "notes": "listed by GET /api2/json/cluster/status through lab1"},
                            {"name": "pve4", "product": "proxmox", "host": "192.168.10.14", "port": 8006,
                             "verify_tls": false, "extras": {"scheme": "https"}}],
             "skipped": [{"candidate": {"name": "pve1", "product": "proxmox", "host": "192.168.10.11"},
                          "reason": "seed_target", "message": "this is the seed target lab1 itself"},
                         {"candidate": {"name": "pve3", "product": "proxmox", "host": "10.9.9.9"},
                          "reason": "ssrf_refused", "message": "destination 10.9.9.9 is private;\\nallowlist it"}],
             "omitted": 0}
            """;

    @RegisterExtension
    final LoopbackBackplane backplane = new LoopbackBackplane().answer("/api/v1/targets/discover", PLAN);

    @Test
    void thePlanIsATargetsYamlWithTheRestCommentedOut() throws Exception {
        Result r = backplane.svc("targets", "discover", "proxmox", "--seed-target", "lab1");

        assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.OK);
        JsonNode sent = Http.JSON.readTree(PLAN);
        JsonNode read = new YAMLMapper().readTree(r.out());
        assertThat(read.size()).as("one key: targets").isEqualTo(1);
        assertThat(read.path("targets")).isEqualTo(sent.path("candidates"));
        assertThat(read.path("targets").get(0).path("version").isTextual()).isTrue();
        assertThat(r.out()).startsWith("# svc targets discover proxmox --seed-target lab1\n")
                .contains("# seed target: lab1 (product proxmox, through connector proxmox-9.x)\n")
                .contains("2 importable candidate(s); 2 not importable as they are")
                .contains("# seed_target: this is the seed target lab1 itself\n")
                .contains("# ssrf_refused: destination 10.9.9.9 is private; allowlist it\n");

        String uncommented = r.out().replaceAll("(?m)^# (- |  )", "$1");
        JsonNode all = new YAMLMapper().readTree(uncommented);
        assertThat(all.path("targets").findValuesAsText("name")).as("uncommenting a member makes it an entry")
                .containsExactly("pve2", "pve4", "pve1", "pve3");
    }

    /** Vendor-chosen text with YAML 1.1 line breaks (NEL, LS, PS) stays inside its comment. */
    @Test
    void vendorTextCannotSlipAnEntryIntoThePlan() throws Exception {
        String evil = "x\\u2028  - name: \\\"evil\\\"\\u2029    product: \\\"k8s\\\"\\u0085    host: \\\"attacker.example\\\"";
        backplane.answer("/api/v1/targets/discover", """
                {"product": "prometheus", "seed_target": "p", "connector_id": "prometheus-2.x",
                 "candidates": [{"name": "am", "product": "alertmanager", "host": "10.0.0.2", "notes": "%1$s\\nnext"}],
                 "skipped": [{"candidate": {"name": "job-x", "host": "10.0.0.1", "notes": "%1$s\\nsecond line"},
                              "reason": "no_product", "message": "%1$s"}], "omitted": 0}""".formatted(evil));
        Result r = backplane.svc("targets", "discover", "prometheus", "--seed-target", "p");
        assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.OK);
        String skippedPart = r.out().substring(r.out().indexOf("# not importable"));
        for (String line : skippedPart.split(DiscoveryPlanYaml.LINE_BREAK)) {
            assertThat(line).as("every line a parser sees").matches("(#.*|)");
        }
        JsonNode targets = new YAMLMapper().readTree(r.out()).path("targets");
        assertThat(targets).hasSize(1);
        assertThat(targets.get(0).path("name").asText()).isEqualTo("am");
        assertThat(targets.get(0).path("host").asText()).isEqualTo("10.0.0.2");
        assertThat(targets.get(0).path("notes").asText()).contains("attacker.example").endsWith("next");
    }

    @Test
    void jsonIsTheServersDocument() throws Exception {
        Result r = backplane.svc("targets", "discover", "proxmox", "--seed-target", "lab1", "--json");
        assertThat(Http.JSON.readTree(r.out())).isEqualTo(Http.JSON.readTree(PLAN));
    }

    @Test
    void noCandidatesIsAnEmptyList() throws Exception {
        backplane.answer("/api/v1/targets/discover", """
                {"product": "k8s", "seed_target": "c1", "connector_id": "k8s-1.x", "candidates": [],
                 "skipped": [], "omitted": 1200}""");
        Result r = backplane.svc("targets", "discover", "k8s", "--seed-target", "c1");
        assertThat(new YAMLMapper().readTree(r.out()).path("targets").isArray()).isTrue();
        assertThat(r.out()).contains("0 importable candidate(s).").contains("# 1200 more member(s) beyond the plan's cap");
    }
}
