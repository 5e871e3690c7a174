package dev.backplane.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IngestToolMainTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        return IngestToolMain.run(args, new PrintWriter(out), new PrintWriter(err));
    }

    @Test
    void printsSummary() {
        Path keycloak = RealSpecs.spec("keycloak-23.0.7-openapi.json");
        int code = run("--spec", keycloak.toString(), "--impl", "keycloak", "--version", "23.x",
                "--spec-info-versions-compatible", "1.x");
        assertThat(code).as(err.toString()).isEqualTo(IngestToolMain.OK);
        assertThat(out.toString())
                .contains("connector  keycloak-23.x (product keycloak)")
                .contains("openapi-3.0.2, 'Keycloak Admin REST API' info.version 1.0")
                .contains("base path  /admin/realms")
                .contains("operations 316")
                .containsPattern("safety     safe \\d+, caution \\d+, dangerous \\d+")
                .containsPattern("\\n  users +\\d+\\n");
    }

    @Test
    void printsWholeCatalogAsJson(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("pets.yaml"), SpecIngesterTest.PETS);
        int code = run("--spec", file.toString(), "--impl", "pets", "--version", "2.x", "--product", "petstore", "--json");
        assertThat(code).as(err.toString()).isEqualTo(IngestToolMain.OK);
        JsonNode json = Schemas.tree(out.toString());
        assertThat(json.path("connector_id").asText()).isEqualTo("pets-2.x");
        assertThat(json.path("product").asText()).isEqualTo("petstore");
        assertThat(json.path("base_path").asText()).isEqualTo("/api/v2");
        assertThat(json.path("specs").path(0).path("format").asText()).isEqualTo("openapi-3.0.3");
        assertThat(json.path("groups")).hasSize(4);
        assertThat(json.path("operations")).hasSize(7);
        JsonNode first = json.path("operations").path(0);
        assertThat(first.path("op_id").asText()).isEqualTo("pets.pet_store.get_pet_by_id");
        assertThat(first.path("method").asText()).isEqualTo("GET");
        assertThat(first.path("path").asText()).isEqualTo("/pets/{petId}");
        assertThat(first.path("safety_level").asText()).isEqualTo("safe");
        assertThat(first.path("params_schema").path("properties").path("petId").path("x-svc-in").asText()).isEqualTo("path");
        assertThat(json.path("warnings").size()).isGreaterThan(0);
    }

    @Test
    void rejectedSpecExitsOneWithTheMessage() {
        Path keycloak = RealSpecs.spec("keycloak-23.0.7-openapi.json");
        int code = run("--spec", keycloak.toString(), "--impl", "keycloak", "--version", "23.x");
        assertThat(code).isEqualTo(IngestToolMain.REJECTED);
        assertThat(err.toString()).contains("spec_version_mismatch")
                .contains("--spec-info-versions-compatible 1.x");
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void aSpecWithRefsToOtherFilesNamesThisToolsFlagAndItFollowsThem(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("tag.yaml"), "type: object\nproperties:\n  label: {type: string}\n");
        Path file = Files.writeString(dir.resolve("pets.yaml"),
                SpecIngesterTest.PETS.replace("$ref: '#/components/schemas/Tag'", "$ref: 'tag.yaml'"));
        int code = run("--spec", file.toString(), "--impl", "pets", "--version", "2.x");
        assertThat(code).isEqualTo(IngestToolMain.REJECTED);
        assertThat(err.toString()).contains("$ref 'tag.yaml'").contains("give its directory, or a zip, tar or tar.gz")
                .contains("or let this tool follow them with --allow-remote-refs");
        // the directory is a multi-file spec: its relative refs are followed without the flag
        err.getBuffer().setLength(0);
        assertThat(run("--spec", dir.toString(), "--impl", "pets", "--version", "2.x")).as(err.toString())
                .isEqualTo(IngestToolMain.OK);
        err.getBuffer().setLength(0);
        assertThat(run("--spec", file.toString(), "--impl", "pets", "--version", "2.x", "--allow-remote-refs"))
                .as(err.toString()).isEqualTo(IngestToolMain.OK);
    }

    @Test
    void usageErrorsExitTwo() {
        assertThat(run("--impl", "x", "--version", "1.x")).isEqualTo(IngestToolMain.USAGE);
        assertThat(err.toString()).contains("--spec");
        assertThat(run("--spec", "x.json", "--impl", "Not Valid", "--version", "1.x")).isEqualTo(IngestToolMain.USAGE);
        assertThat(run("--spec", "x.json", "--impl", "x", "--version", "1.x", "--max-bytes", "lots"))
                .isEqualTo(IngestToolMain.USAGE);
    }

    @Test
    void helpExitsZero() {
        assertThat(run("--help")).isEqualTo(IngestToolMain.OK);
        assertThat(out.toString()).contains("svc-ingest").contains("--spec-info-versions-compatible");
    }
}
