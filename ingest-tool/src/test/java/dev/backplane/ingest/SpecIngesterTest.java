package dev.backplane.ingest;

import static dev.backplane.plugin.api.IngestedConnector.IN_KEYWORD;
import static dev.backplane.plugin.api.IngestedConnector.NAME_KEYWORD;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.ingest.SpecIngestException.Reason;
import dev.backplane.plugin.api.OpClass;
import dev.backplane.plugin.api.OperationDescriptor;
import dev.backplane.plugin.api.OperationGroup;
import dev.backplane.plugin.api.OperationShape;
import dev.backplane.plugin.api.ResultKind;
import dev.backplane.plugin.api.SafetyLevel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SpecIngesterTest {

    /** Path, query, header and cookie params, JSON and form bodies, nullable, a $ref closure with a cycle. */
    static final String PETS = """
            openapi: 3.0.3
            info: {title: Pets, version: 2.1.0}
            servers:
              - url: "https://{host}/api/{ver}/"
                variables: {host: {default: pets.example.com}, ver: {default: v2}}
            tags:
              - {name: Pet Store, description: "Everything   about\\n pets"}
            paths:
              /pets/{petId}:
                parameters:
                  - {name: petId, in: path, required: true, description: The pet, schema: {type: integer}}
                  - {name: verbose, in: query, schema: {type: boolean}}
                get:
                  operationId: getPetById
                  tags: [Pet Store, other]
                  summary: Get a pet
                  description: |
                    Returns   one
                    pet.
                  parameters:
                    - {name: verbose, in: query, required: true, schema: {type: string}}
                    - {name: X-Request-ID, in: header, schema: {type: string}}
                    - {name: session, in: cookie, schema: {type: string}}
                    - {name: Authorization, in: header, schema: {type: string}}
                    - {name: petId, in: header, schema: {type: string}}
                    - {name: "filter[name]", in: query, schema: {type: string}}
                  responses:
                    '200':
                      description: ok
                      content: {application/json: {schema: {$ref: '#/components/schemas/Pet'}}}
                put:
                  operationId: updatePet
                  tags: [Pet Store]
                  requestBody:
                    required: true
                    content:
                      application/xml: {schema: {type: string}}
                      application/json: {schema: {$ref: '#/components/schemas/Pet'}}
                  responses: {'204': {description: done}}
                delete:
                  responses: {'204': {description: gone}}
              /pets:
                get:
                  operationId: list-pets
                  responses:
                    '200':
                      description: all
                      content: {application/json: {schema: {$ref: '#/components/schemas/PetList'}}}
                post:
                  operationId: createPetForm
                  requestBody:
                    content:
                      application/x-www-form-urlencoded:
                        schema: {type: object, properties: {name: {type: string}}, required: [name]}
                  responses: {'201': {description: created}}
              /{tenant}/uploads:
                post:
                  parameters:
                    - {name: tenant, in: path, required: true, schema: {type: string}}
                    - {name: body, in: query, schema: {type: string}}
                  requestBody:
                    content: {application/octet-stream: {schema: {type: string, format: binary}}}
                  responses: {'200': {description: ok}}
                trace:
                  responses: {'200': {description: ok}}
              /:
                head:
                  operationId: root
                  responses: {'200': {description: ok}}
            components:
              schemas:
                Pet:
                  type: object
                  required: [id]
                  discriminator: {propertyName: kind}
                  xml: {name: pet}
                  x-vendor: 1
                  example: {id: 1}
                  properties:
                    id: {type: integer, minimum: 0, exclusiveMinimum: true}
                    name: {type: string, nullable: true}
                    owner: {$ref: '#/components/schemas/Owner'}
                    tags: {type: array, items: {$ref: '#/components/schemas/Tag'}}
                    kind: {type: string, enum: [cat, dog], nullable: true}
                Owner:
                  type: object
                  properties:
                    pets: {type: array, items: {$ref: '#/components/schemas/Pet'}}
                    example: {type: string}
                Tag: {type: object, properties: {label: {type: string}}}
                PetList: {type: array, items: {$ref: '#/components/schemas/Pet'}}
                Unused: {type: string}
            """;

    private static IngestOptions options(String impl, String label, List<String> compatible) {
        return new IngestOptions(impl, label, impl, compatible, IngestOptions.DEFAULT_MAX_BYTES, false, p -> { });
    }

    private static List<String> names(JsonNode object) {
        return object.properties().stream().map(java.util.Map.Entry::getKey).toList();
    }

    private static OperationDescriptor op(IngestResult result, String opId) {
        return result.catalog().operations().stream().filter(o -> o.opId().equals(opId)).findFirst()
                .orElseThrow(() -> new AssertionError(opId + " not in " + result.catalog().operations().stream()
                        .map(OperationDescriptor::opId).toList()));
    }

    @Test
    void convertsHandWrittenSpec() {
        IngestResult result = SpecIngester.ingest(List.of(SpecSource.text("pets.yaml", PETS)), options("pets", "2.x", List.of()));

        assertThat(result.basePath()).isEqualTo("/api/v2");
        assertThat(result.specs()).singleElement().satisfies(spec -> {
            assertThat(spec.format()).isEqualTo("openapi-3.0.3");
            assertThat(spec.title()).isEqualTo("Pets");
            assertThat(spec.infoVersion()).isEqualTo("2.1.0");
            assertThat(spec.operations()).isEqualTo(7);
        });
        assertThat(result.catalog().operations()).extracting(OperationDescriptor::opId).containsExactly(
                "pets.pet_store.get_pet_by_id", "pets.pet_store.update_pet", "pets.pets.delete_pets_by_pet_id",
                "pets.pets.list_pets", "pets.pets.create_pet_form", "pets.uploads.post_uploads", "pets.root.root");
        assertThat(result.catalog().groups()).containsExactly(
                new OperationGroup("pet_store", "Pet Store", "Everything about pets"),
                new OperationGroup("pets", "pets", "Operations under /pets"),
                new OperationGroup("uploads", "uploads", "Operations under /uploads"),
                new OperationGroup("root", "root", "Operations at the root of the API"));
        assertThat(result.warnings())
                .anyMatch(w -> w.contains("GET /pets/{petId}") && w.contains("cookie parameter 'session' skipped"))
                .anyMatch(w -> w.contains("header parameter 'Authorization' skipped"))
                .anyMatch(w -> w.contains("TRACE /{tenant}/uploads skipped"))
                .anyMatch(w -> w.contains("application/octet-stream described as a string"));

        OperationDescriptor get = op(result, "pets.pet_store.get_pet_by_id");
        assertThat(get.description()).isEqualTo("Get a pet. Returns one pet.");
        assertThat(get.shape()).isEqualTo(new OperationShape.Http("GET", "/pets/{petId}"));
        assertThat(get.resultKind()).isEqualTo(ResultKind.OBJECT);
        assertThat(get.safetyLevel()).isEqualTo(SafetyLevel.SAFE);
        JsonNode schema = Schemas.tree(get.paramsSchema());
        assertThat(schema.path("type").asText()).isEqualTo("object");
        assertThat(schema.path("additionalProperties").asBoolean(true)).isFalse();
        assertThat(names(schema.path("properties"))).containsExactly(
                "petId", "verbose", "X-Request-ID", "petId_header", "filter_name");
        assertThat(schema.path("properties").path("petId").toString())
                .isEqualTo("{\"type\":\"integer\",\"description\":\"The pet\",\"x-svc-in\":\"path\"}");
        assertThat(schema.path("properties").path("verbose").path("type").asText()).isEqualTo("string");
        assertThat(schema.path("properties").path("X-Request-ID").path(IN_KEYWORD).asText()).isEqualTo("header");
        assertThat(schema.path("properties").path("petId_header").path(NAME_KEYWORD).asText()).isEqualTo("petId");
        assertThat(schema.path("properties").path("filter_name").path(NAME_KEYWORD).asText()).isEqualTo("filter[name]");
        assertThat(schema.path("required").toString()).isEqualTo("[\"petId\",\"verbose\"]");
        assertThat(schema.has("$defs")).isFalse();

        OperationDescriptor put = op(result, "pets.pet_store.update_pet");
        assertThat(put.safetyLevel()).isEqualTo(SafetyLevel.CAUTION);
        assertThat(put.requiresApproval()).isTrue();
        assertThat(put.opClass()).isEqualTo(OpClass.WRITE);
        assertThat(put.description()).isEqualTo("PUT /pets/{petId}");
        JsonNode putSchema = Schemas.tree(put.paramsSchema());
        assertThat(putSchema.path("properties").path("body").toString())
                .isEqualTo("{\"$ref\":\"#/$defs/Pet\",\"x-svc-in\":\"body\"}");
        assertThat(putSchema.path("required").toString()).isEqualTo("[\"petId\",\"body\"]");
        assertThat(names(putSchema.path("$defs"))).containsExactly("Owner", "Pet", "Tag");
        JsonNode pet = putSchema.path("$defs").path("Pet");
        assertThat(names(pet)).containsExactlyInAnyOrder("type", "properties", "required");
        assertThat(pet.path("properties").path("name").path("type").toString()).isEqualTo("[\"string\",\"null\"]");
        assertThat(pet.path("properties").path("kind").path("enum").toString()).isEqualTo("[\"cat\",\"dog\",null]");
        assertThat(pet.path("properties").path("id").toString()).isEqualTo("{\"type\":\"integer\",\"exclusiveMinimum\":0}");
        assertThat(pet.path("properties").path("owner").path("$ref").asText()).isEqualTo("#/$defs/Owner");
        assertThat(putSchema.path("$defs").path("Owner").path("properties").has("example")).isTrue();

        assertThat(Schemas.validate(put.paramsSchema(), """
                {"petId": 1, "body": {"id": 1, "name": null, "kind": null,
                 "owner": {"pets": [{"id": 2, "tags": [{"label": "x"}]}]}}}""")).isEmpty();
        assertThat(Schemas.validate(put.paramsSchema(), """
                {"petId": 1, "body": {"name": "x", "owner": {"pets": [{"id": 0}]}}}""")).hasSize(2);
        assertThat(Schemas.validate(put.paramsSchema(), "{\"petId\": 1, \"body\": {\"id\": 1}, \"extra\": 1}")).hasSize(1);

        OperationDescriptor delete = op(result, "pets.pets.delete_pets_by_pet_id");
        assertThat(delete.safetyLevel()).isEqualTo(SafetyLevel.DANGEROUS);
        assertThat(delete.requiresApproval()).isTrue();

        assertThat(op(result, "pets.pets.list_pets").resultKind()).isEqualTo(ResultKind.SET);

        JsonNode form = Schemas.tree(op(result, "pets.pets.create_pet_form").paramsSchema()).path("properties").path("body");
        assertThat(form.path("x-svc-content-type").asText()).isEqualTo("application/x-www-form-urlencoded");
        assertThat(form.path("required").toString()).isEqualTo("[\"name\"]");

        JsonNode upload = Schemas.tree(op(result, "pets.uploads.post_uploads").paramsSchema());
        assertThat(names(upload.path("properties"))).containsExactly("tenant", "body", "request_body");
        assertThat(upload.path("properties").path("request_body").toString()).isEqualTo(
                "{\"type\":\"string\",\"x-svc-content-type\":\"application/octet-stream\",\"x-svc-in\":\"body\"}");
        assertThat(op(result, "pets.root.root").shape()).isEqualTo(new OperationShape.Http("HEAD", "/"));

        for (OperationDescriptor each : result.catalog().operations()) {
            Schemas.compile(each.paramsSchema());
        }
    }

    @Test
    void swagger2BodyAndFormDataBecomeBodies() {
        String spec = """
                {"swagger": "2.0", "info": {"title": "Old", "version": "v3.2"}, "basePath": "/v3/",
                 "paths": {
                   "/things": {
                     "post": {"operationId": "AddThing", "consumes": ["application/json"],
                       "parameters": [{"name": "thing", "in": "body", "required": true, "schema": {"$ref": "#/definitions/Thing"}}],
                       "responses": {"200": {"description": "ok", "schema": {"type": "array", "items": {"$ref": "#/definitions/Thing"}}}}},
                     "put": {"operationId": "UploadThing", "consumes": ["application/x-www-form-urlencoded"],
                       "parameters": [{"name": "label", "in": "formData", "type": "string", "required": true}],
                       "responses": {"200": {"description": "ok"}}}}},
                 "definitions": {"Thing": {"type": "object", "properties": {"label": {"type": "string", "x-nullable": true}}}}}
                """;
        IngestResult result = SpecIngester.ingest(List.of(SpecSource.text("old.json", spec)), options("old", "3.x", List.of()));
        assertThat(result.basePath()).isEqualTo("/v3");
        assertThat(result.specs().getFirst().format()).isEqualTo("swagger-2.0");
        OperationDescriptor add = op(result, "old.things.add_thing");
        assertThat(add.resultKind()).isEqualTo(ResultKind.SET);
        JsonNode addSchema = Schemas.tree(add.paramsSchema());
        assertThat(addSchema.path("properties").path("body").path("$ref").asText()).isEqualTo("#/$defs/Thing");
        assertThat(addSchema.path("required").toString()).isEqualTo("[\"body\"]");
        assertThat(addSchema.path("$defs").path("Thing").path("properties").path("label").path("type").toString())
                .isEqualTo("[\"string\",\"null\"]");
        JsonNode upload = Schemas.tree(op(result, "old.things.upload_thing").paramsSchema()).path("properties").path("body");
        assertThat(upload.path("x-svc-content-type").asText()).isEqualTo("application/x-www-form-urlencoded");
        assertThat(upload.path("properties").has("label")).isTrue();
    }

    @Test
    void mergesSpecsWithDifferentBasePaths() {
        String a = "{\"swagger\":\"2.0\",\"info\":{\"title\":\"a\",\"version\":\"1.0\"},\"basePath\":\"/a\","
                + "\"paths\":{\"/x\":{\"get\":{\"operationId\":\"getX\",\"responses\":{\"200\":{\"description\":\"ok\"}}}}}}";
        String b = "{\"openapi\":\"3.0.0\",\"info\":{\"title\":\"b\",\"version\":\"1.2\"},\"servers\":[{\"url\":\"/b/\"}],"
                + "\"paths\":{\"/x\":{\"get\":{\"operationId\":\"getX\",\"responses\":{\"200\":{\"description\":\"ok\"}}}}}}";
        IngestResult result = SpecIngester.ingest(List.of(SpecSource.text("a.json", a), SpecSource.text("b.json", b)),
                options("ab", "1.x", List.of()));
        assertThat(result.basePath()).isEmpty();
        assertThat(result.catalog().operations()).extracting(OperationDescriptor::opId)
                .containsExactly("ab.x.get_x", "ab.x.get_x_2");
        assertThat(result.catalog().operations()).extracting(OperationDescriptor::shape).containsExactly(
                new OperationShape.Http("GET", "/a/x"), new OperationShape.Http("GET", "/b/x"));
        assertThat(result.specs()).extracting(IngestResult.SpecInfo::operations).containsExactly(1, 1);
        // different paths, one name: the suffix is said, nothing else
        assertThat(result.warnings()).containsExactly(
                "b.json: GET /x: op id ab.x.get_x is taken by an earlier operation; this one is ab.x.get_x_2");
    }

    @Test
    void warnsWhenMergedSpecsRepeatAnOperationOrNameDifferentHosts() {
        String a = "{\"openapi\":\"3.0.0\",\"info\":{\"title\":\"a\",\"version\":\"1.0\"},"
                + "\"servers\":[{\"url\":\"https://dns.example.com/api\"}],"
                + "\"paths\":{\"/zones\":{\"get\":{\"operationId\":\"listZones\",\"responses\":{\"200\":{\"description\":\"ok\"}}}}}}";
        String b = a.replace("\"title\":\"a\"", "\"title\":\"b\"").replace("dns.example.com", "ipam.example.org");
        IngestResult result = SpecIngester.ingest(List.of(SpecSource.text("a.json", a), SpecSource.text("b.json", b)),
                options("ab", "1.x", List.of()));
        assertThat(result.catalog().operations()).extracting(OperationDescriptor::opId)
                .containsExactly("ab.zones.list_zones", "ab.zones.list_zones_2");
        assertThat(result.warnings()).contains(
                "b.json: GET /zones is also in an earlier spec; both are kept, the later one's op id with a suffix (_2)",
                "the specs name different hosts (dns.example.com, ipam.example.org); a connector's operations all go "
                        + "to its target's base URL, so merge only specs of one API");
    }

    @Test
    void reportsProgressByStage() {
        List<IngestOptions.Progress> progress = new ArrayList<>();
        SpecIngester.ingest(List.of(SpecSource.text("pets.yaml", PETS)),
                new IngestOptions("pets", "2.x", "pets", List.of(), 1_000_000, false, progress::add));
        assertThat(progress).extracting(IngestOptions.Progress::stage)
                .containsExactly("reading", "parsing", "operations", "done");
        assertThat(progress.getLast()).isEqualTo(new IngestOptions.Progress("done", 7, 7));
    }

    @Test
    void rejectsVersionMismatchAndAcceptsDeclaredCompatibility() {
        Path keycloak = RealSpecs.spec("keycloak-23.0.7-openapi.json");
        List<SpecSource> sources = List.of(SpecSource.of(keycloak.toString()));
        assertThatThrownBy(() -> SpecIngester.ingest(sources, options("keycloak", "23.x", List.of())))
                .isInstanceOfSatisfying(SpecIngestException.class,
                        e -> assertThat(e.reason()).isEqualTo(Reason.SPEC_VERSION_MISMATCH))
                .hasMessage("keycloak-23.0.7-openapi.json has info.version '1.0' (major 1) but the label 23.x has major 23; "
                        + "if this spec serves that product version, declare it: --spec-info-versions-compatible 1.x");
        assertThat(SpecIngester.ingest(sources, options("keycloak", "23.x", List.of("1.x"))).catalog().operations())
                .hasSize(316);
        assertThat(SpecIngester.ingest(sources, options("keycloak", "23.x", List.of(">=1.0,<2"))).catalog().operations())
                .hasSize(316);
        assertThatThrownBy(() -> SpecIngester.ingest(sources, options("keycloak", "23.x", List.of(">=2.0"))))
                .isInstanceOf(SpecIngestException.class)
                .hasMessageContaining("none of the declared compatible versions [>=2.0] matches");
    }

    @Test
    void rejectsSpecOverTheSizeCap() {
        Path keycloak = RealSpecs.spec("keycloak-23.0.7-openapi.json");
        IngestOptions small = new IngestOptions("keycloak", "1.x", "keycloak", List.of(), 1000, false, p -> { });
        assertThatThrownBy(() -> SpecIngester.ingest(List.of(SpecSource.of(keycloak.toString())), small))
                .isInstanceOfSatisfying(SpecIngestException.class,
                        e -> assertThat(e.reason()).isEqualTo(Reason.SPEC_TOO_LARGE))
                .hasMessageContaining("over the cap of 1000 bytes");
        assertThatThrownBy(() -> SpecIngester.ingest(List.of(SpecSource.text("pets.yaml", PETS)), small))
                .isInstanceOfSatisfying(SpecIngestException.class,
                        e -> assertThat(e.reason()).isEqualTo(Reason.SPEC_TOO_LARGE));
    }

    /** swagger-parser's own YAML reader stops at 3,145,728 code points; ours reads up to the byte cap. */
    @Test
    void readsYamlUpToTheSizeCapNotTheParsersDefault() {
        String big = PETS + "x-padding:\n" + ("  - " + "lorem ipsum dolor sit amet ".repeat(4) + "\n").repeat(40_000);
        assertThat(big.length()).isGreaterThan(4_000_000);
        IngestResult result = SpecIngester.ingest(List.of(SpecSource.text("big.yaml", big)), options("pets", "2.x", List.of()));
        assertThat(result.catalog().operations()).isNotEmpty();
        // what makes YAML dangerous is still bounded: a billion laughs is read without expanding it (it would not end)
        StringBuilder laughs = new StringBuilder("openapi: 3.0.3\ninfo: {title: x, version: '1'}\nx-a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
        for (char c = 'b'; c <= 'k'; c++) {
            char prev = (char) (c - 1);
            laughs.append("x-").append(c).append(": &").append(c).append(" [");
            laughs.append(String.join(", ", java.util.Collections.nCopies(9, "*" + prev))).append("]\n");
        }
        laughs.append("paths: {}\n");
        assertSpecInvalid("laughs.yaml", laughs.toString());
    }

    @Test
    void keepsAVendorsAcceptHeaderOptionalWithItsOneValueAsDefault() {
        String spec = """
                swagger: "2.0"
                info: {title: x, version: '1'}
                paths:
                  /repos/{id}:
                    get:
                      operationId: getRepo
                      parameters:
                        - {name: id, in: path, required: true, type: string}
                        - {name: Accept, in: header, required: true, type: string, enum: [application/vnd.x.v3+json]}
                        - {name: Authorization, in: header, type: string}
                      responses: {'200': {description: ok}}
                """;
        IngestResult result = SpecIngester.ingest(List.of(SpecSource.text("a.yaml", spec)), options("x", "1.x", List.of()));
        JsonNode schema = Schemas.tree(op(result, "x.repos.get_repo").paramsSchema());
        JsonNode accept = schema.path("properties").path("Accept");
        assertThat(accept.path(IN_KEYWORD).asText()).isEqualTo("header");
        assertThat(accept.path("default").asText()).isEqualTo("application/vnd.x.v3+json");
        assertThat(schema.path("required")).extracting(JsonNode::asText).containsExactly("id");
        assertThat(result.warnings()).noneMatch(w -> w.contains("'Accept'"))
                .anyMatch(w -> w.contains("header parameter 'Authorization' skipped"));
    }

    @Test
    void dropsATemplateTheSpecLeavesInItsBasePathAndSaysSo() {
        String spec = """
                swagger: "2.0"
                info: {title: forge, version: '1.0'}
                basePath: "{{AppSubUrl | JSEscape}}/api/v1"
                paths:
                  /repos: {get: {operationId: listRepos, responses: {'200': {description: ok}}}}
                """;
        IngestResult result = SpecIngester.ingest(List.of(SpecSource.text("forge.yaml", spec)), options("forge", "1.x", List.of()));
        assertThat(result.basePath()).isEqualTo("/api/v1");
        assertThat(result.warnings()).contains("forge.yaml: the base path '/{{AppSubUrl | JSEscape}}/api/v1' holds a "
                + "template the spec does not resolve; '/api/v1' is used");
    }

    @Test
    void givesNoSpuriousWarningForAValidOpenApi31License() {
        String spec = """
                openapi: 3.1.0
                info: {title: x, version: '1', license: {name: MIT}}
                paths:
                  /a:
                    get: {operationId: a, responses: {'200': {description: ok}}}
                """;
        IngestResult result = SpecIngester.ingest(List.of(SpecSource.text("l.yaml", spec)), options("l", "1.x", List.of()));
        assertThat(result.warnings()).noneMatch(w -> w.contains("license"));
    }

    @Test
    void namesTheYamlErrorWithoutTheParsersLimits() {
        assertSpecInvalid("garbage.yaml", "this is: [not a spec").hasMessageContaining("line 1, column 10")
                .hasMessageNotContaining("Max code points");
    }

    @Test
    void refusesRemoteRefsWithoutFetchingThem(@TempDir Path dir) throws Exception {
        String remote = PETS.replace("$ref: '#/components/schemas/Tag'", "$ref: 'http://127.0.0.1:9/x.json#/Tag'");
        assertThatThrownBy(() -> SpecIngester.ingest(List.of(SpecSource.text("pets.yaml", remote)), options("pets", "2.x", List.of())))
                .isInstanceOfSatisfying(SpecIngestException.class,
                        e -> assertThat(e.reason()).isEqualTo(Reason.SPEC_UNREADABLE))
                .hasMessageContaining("$ref 'http://127.0.0.1:9/x.json#/Tag'")
                .hasMessageContaining("or bundle it into one document")
                .hasMessageNotContaining("--allow-remote-refs"); // a flag the backplane's ingest does not have

        Path file = dir.resolve("pets.yaml");
        Files.writeString(file, PETS.replace("$ref: '#/components/schemas/Tag'", "$ref: 'tag.yaml'"));
        assertThatThrownBy(() -> SpecIngester.ingest(List.of(SpecSource.of(file.toUri().toString())), options("pets", "2.x", List.of())))
                .isInstanceOfSatisfying(SpecIngestException.class,
                        e -> assertThat(e.reason()).isEqualTo(Reason.SPEC_UNREADABLE))
                .hasMessageContaining("$ref 'tag.yaml'");
    }

    @Test
    void followsRelativeRefsWhenAllowed(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("tag.yaml"), "type: object\nproperties:\n  label: {type: string}\n");
        Path file = dir.resolve("pets.yaml");
        Files.writeString(file, PETS.replace("$ref: '#/components/schemas/Tag'", "$ref: 'tag.yaml'"));
        IngestResult result = SpecIngester.ingest(List.of(SpecSource.of(file.toString())),
                new IngestOptions("pets", "2.x", "pets", List.of(), 1_000_000, true, p -> { }));
        OperationDescriptor put = op(result, "pets.pet_store.update_pet");
        JsonNode defs = Schemas.tree(put.paramsSchema()).path("$defs");
        assertThat(defs.path("Pet").path("properties").path("tags").path("items").path("$ref").asText()).startsWith("#/$defs/");
        Schemas.compile(put.paramsSchema());
    }

    @Test
    void rejectsWhatIsNotAnOpenApiDocument() {
        assertSpecInvalid("garbage.txt", "this is: [not a spec");
        assertSpecInvalid("plain.txt", "hello world")
                .hasMessageContaining("plain.txt is not an OpenAPI 2.0, 3.0 or 3.1 document");
        // Swagger 1.2 (its compatibility parser is left out of the build): refused, named as unsupported
        assertSpecInvalid("swagger12.json",
                "{\"swaggerVersion\": \"1.2\", \"apiVersion\": \"1.0\", \"apis\": [{\"path\": \"/pets\"}]}")
                .hasMessageContaining("swagger12.json is not an OpenAPI 2.0, 3.0 or 3.1 document");
        assertSpecInvalid("asyncapi.json", "{\"asyncapi\": \"2.0.0\", \"info\": {\"title\": \"x\", \"version\": \"1\"}}");
        assertSpecInvalid("empty.json",
                "{\"openapi\": \"3.0.0\", \"info\": {\"title\": \"x\", \"version\": \"1\"}, \"paths\": {}}")
                .hasMessageContaining("has no operations");
    }

    /** Ingesting {@code text} as the file {@code name} is refused as {@code spec_invalid}. */
    private static AbstractThrowableAssert<?, ? extends Throwable> assertSpecInvalid(String name, String text) {
        return assertThatThrownBy(() -> SpecIngester.ingest(List.of(SpecSource.text(name, text)),
                options("x", "1.x", List.of())))
                .isInstanceOfSatisfying(SpecIngestException.class,
                        e -> assertThat(e.reason()).isEqualTo(Reason.SPEC_INVALID));
    }

    @Test
    void reportsMissingFileAsUnreadable(@TempDir Path dir) {
        assertThatThrownBy(() -> SpecIngester.ingest(List.of(SpecSource.of(dir.resolve("nope.json").toString())),
                options("x", "1.x", List.of())))
                .isInstanceOfSatisfying(SpecIngestException.class,
                        e -> assertThat(e.reason()).isEqualTo(Reason.SPEC_UNREADABLE))
                .hasMessageContaining("no such file");
    }

    @Test
    void refusesImplIdThatCannotStartAnOpId() {
        assertThatThrownBy(() -> SpecIngester.ingest(List.of(SpecSource.text("pets.yaml", PETS)),
                options("Pets!", "2.x", List.of())))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
