package dev.backplane.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.backplane.cli.LoopbackBackplane.Result;
import dev.backplane.cli.LoopbackBackplane.Seen;
import dev.backplane.cli.common.BuildInfo;
import dev.backplane.cli.common.ExitCodes;
import dev.backplane.cli.common.Http;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The CLI conventions every command shares: {@code --json} and {@code -o json|yaml|table} on what prints
 * data, and {@code User-Agent: svc-cli/<version>} on every request (backplane and identity provider).
 */
class OutputConventionsTest {

    static final String TARGETS = """
            {"targets": [{"name": "prod-k8s", "product": "k8s", "host": "10.0.0.1", "port": 6443,
              "aliases": ["prod"], "fingerprint": null}], "next_cursor": null}
            """;

    @RegisterExtension
    final LoopbackBackplane backplane = new LoopbackBackplane().answer("/api/v1/targets", TARGETS);

    private Result svc(String... args) {
        return backplane.svc(args);
    }

    @Test
    void versionPrintsJsonAndYaml() throws Exception {
        Result json = svc("version", "--json");
        Result o = svc("version", "-o", "json");
        Result yaml = svc("version", "-o", "yaml");

        assertThat(json.code()).isEqualTo(ExitCodes.OK);
        JsonNode doc = Http.JSON.readTree(json.out());
        assertThat(doc.path("version").asText()).isEqualTo(BuildInfo.version());
        assertThat(doc.path("java").asText()).isEqualTo(Runtime.version().toString());
        assertThat(Http.JSON.readTree(o.out())).isEqualTo(doc);
        assertThat(yaml.code()).isEqualTo(ExitCodes.OK);
        assertThat(yaml.out()).startsWith("version: ").doesNotContain("{");
        assertThat(new YAMLMapper().readTree(yaml.out())).isEqualTo(doc);
        assertThat(svc("version", "-o", "table").out()).isEqualTo(svc("version").out()).startsWith("svc ");
    }

    @Test
    void backplaneCommandPrintsTheServersDocumentAsJsonOrYaml() throws Exception {
        JsonNode sent = Http.JSON.readTree(TARGETS);

        Result table = svc("targets", "list");
        Result json = svc("targets", "list", "--json");
        Result o = svc("targets", "list", "--output=json");
        Result yaml = svc("targets", "list", "-o", "YAML");

        assertThat(table.code()).as(table.err()).isEqualTo(ExitCodes.OK);
        assertThat(table.out()).contains("NAME").contains("prod-k8s").contains("10.0.0.1:6443");
        assertThat(Http.JSON.readTree(json.out())).isEqualTo(sent);
        assertThat(Http.JSON.readTree(o.out())).isEqualTo(sent);
        assertThat(yaml.code()).as(yaml.err()).isEqualTo(ExitCodes.OK);
        assertThat(yaml.out()).contains("targets:").contains("name: \"prod-k8s\"");
        assertThat(new YAMLMapper().readTree(yaml.out())).isEqualTo(sent);
    }

    @Test
    void badOutputIsAUsageErrorNamingTheChoices() {
        for (String[] args : new String[][] {{"version", "-o", "xml"}, {"targets", "list", "-o", "csv"},
                {"completion", "bash", "-o", "json"}}) {
            Result r = svc(args);

            assertThat(r.code()).as(String.join(" ", args)).isEqualTo(ExitCodes.USAGE);
            assertThat(r.out()).isEmpty();
        }
        assertThat(svc("targets", "list", "-o", "csv").err()).contains("table, wide, json, yaml, jsonpath=<expr>").contains("'csv'");
        assertThat(backplane.seen).as("nothing sent on a usage error").isEmpty();
    }

    @Test
    void jsonAndADifferentOutputDisagree() {
        Result r = svc("targets", "list", "--json", "-o", "yaml");

        assertThat(r.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("--json and -o yaml");
    }

    @Test
    void everyRequestNamesTheCli() {
        svc("targets", "list");

        assertThat(backplane.seen).extracting(Seen::path).containsExactly("/api/v1/targets");
        assertThat(backplane.seen).extracting(Seen::userAgent).containsOnly(BuildInfo.userAgent());
    }

    @Test
    void loginNamesTheCliToTheBackplaneAndTheIdentityProvider() {
        String issuer = backplane.url() + "/realms/svc";
        backplane.answer("/api/v1/info", "{\"issuer\": \"" + issuer + "\", \"cli_client_id\": \"svc-cli\"}")
                .answer("/realms/svc/.well-known/openid-configuration", "{\"issuer\": \"" + issuer + "\", "
                        + "\"device_authorization_endpoint\": \"" + issuer + "/device\", "
                        + "\"token_endpoint\": \"" + issuer + "/token\"}")
                .answer("/realms/svc/device", 400, "{\"error\": \"unauthorized_client\"}");

        Result r = svc("login", backplane.url(), "--insecure-allow-http", "--json");

        assertThat(r.code()).isEqualTo(ExitCodes.FAILED);
        assertThat(r.err()).contains("may not use the device-code flow");
        assertThat(backplane.seen).extracting(Seen::path).containsExactly("/api/v1/info",
                "/realms/svc/.well-known/openid-configuration", "/realms/svc/device");
        assertThat(backplane.seen).extracting(Seen::userAgent).containsOnly(BuildInfo.userAgent());
    }

    @Test
    void printTokenTakesNoDocumentOutput() {
        Result r = svc("login", backplane.url(), "--insecure-allow-http", "--print-token", "-o", "json");

        assertThat(r.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(backplane.seen).isEmpty();
    }
}
