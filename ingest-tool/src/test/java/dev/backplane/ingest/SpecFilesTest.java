package dev.backplane.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.backplane.ingest.SpecIngestException.Reason;
import dev.backplane.plugin.api.OperationDescriptor;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 44 I4: a multi-file spec — a root whose relative {@code $ref}s name files beside it, in subdirectories and
 * back up again — ingested from a directory, a zip, a tar.gz and files already read, with the same catalog each way;
 * and what is refused, with the ref and the file named: a URL, an absolute path, a climb out of the files, a file
 * that is not there, an entry named outside the archive, two roots, no root, too many bytes.
 */
class SpecFilesTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** OpenAPI 3.0: paths and schemas in other files, a ref from a subdirectory back to a sibling directory. */
    static Map<String, String> pets() {
        Map<String, String> files = new LinkedHashMap<>();
        files.put("openapi.yaml", """
                openapi: 3.0.3
                info: {title: Split pets, version: 1.0.0}
                servers: [{url: /api/v1}]
                paths:
                  /pets:
                    $ref: './paths/pets.yaml'
                  /pets/{id}:
                    get:
                      $ref: 'operations/get-pet.yaml'
                components:
                  schemas:
                    Error: {$ref: 'schemas/error.yaml'}
                """);
        files.put("paths/pets.yaml", """
                get:
                  operationId: listPets
                  tags: [pets]
                  responses:
                    '200':
                      description: ok
                      content: {application/json: {schema: {type: array, items: {$ref: '../schemas/pet.yaml'}}}}
                post:
                  operationId: createPet
                  tags: [pets]
                  requestBody:
                    required: true
                    content: {application/json: {schema: {$ref: '../schemas/pet.yaml'}}}
                  responses: {'201': {description: created}}
                """);
        // an operation given as a ref (OpenAPI has none there; Redocly-style split specs do it), and a parameter
        // taken from a fragment of a shared file
        files.put("operations/get-pet.yaml", """
                operationId: getPet
                tags: [pets]
                parameters: [{$ref: '../parameters.yaml#/id'}]
                responses:
                  '200':
                    description: ok
                    content: {application/json: {schema: {$ref: '../schemas/pet.yaml'}}}
                """);
        files.put("parameters.yaml", "id: {name: id, in: path, required: true, schema: {type: string, maxLength: 9}}\n");
        files.put("schemas/pet.yaml", """
                type: object
                required: [name]
                properties:
                  name: {type: string}
                  owner: {$ref: './owner.yaml'}
                """);
        files.put("schemas/owner.yaml", "type: object\nproperties:\n  email: {type: string}\n");
        files.put("schemas/error.yaml", "type: object\nproperties:\n  message: {type: string}\n");
        files.put("README.md", "not a spec file: skipped\n");
        return files;
    }

    @Test
    void aDirectoryAZipATarGzAndFilesReadGiveOneCatalog(@TempDir Path dir) throws Exception {
        Path specDir = write(dir.resolve("pets"), pets());
        IngestResult fromDir = ingest(SpecSource.of(specDir.toString()));
        assertThat(fromDir.catalog().operations()).extracting(OperationDescriptor::opId)
                .containsExactlyInAnyOrder("pets.pets.list_pets", "pets.pets.create_pet", "pets.pets.get_pet");
        assertThat(fromDir.basePath()).isEqualTo("/api/v1");
        assertThat(fromDir.specs().getFirst().location()).isEqualTo(specDir.toString());
        // the body's schema came from schemas/pet.yaml, and its owner from schemas/owner.yaml beside it
        JsonNode create = JSON.readTree(op(fromDir, "pets.pets.create_pet").paramsSchema());
        assertThat(create.toString()).contains("\"name\"").contains("\"email\"");
        assertThat(fromDir.warnings()).noneMatch(w -> w.contains("$ref"));
        // the operation put in place, its parameter from parameters.yaml#/id
        assertThat(JSON.readTree(op(fromDir, "pets.pets.get_pet").paramsSchema()).path("properties").path("id")
                .path("maxLength").asInt()).isEqualTo(9);

        Path zip = dir.resolve("pets.zip");
        Files.write(zip, zip(pets()));
        Path tgz = dir.resolve("pets.tar.gz");
        Files.write(tgz, tarGz(prefixed("pets-1.0/", pets())));
        for (SpecSource source : List.of(SpecSource.of(zip.toString()), SpecSource.of(tgz.toString()),
                SpecSource.files("pets", pets(), null), SpecSource.files("pets", pets(), "openapi.yaml"))) {
            IngestResult r = ingest(source);
            assertThat(r.catalog().operations()).as(source.location()).extracting(OperationDescriptor::opId)
                    .containsExactlyInAnyOrderElementsOf(fromDir.catalog().operations().stream()
                            .map(OperationDescriptor::opId).toList());
            assertThat(op(r, "pets.pets.create_pet").paramsSchema()).isEqualTo(op(fromDir, "pets.pets.create_pet")
                    .paramsSchema());
        }
        // the same files, wherever they came from, are one digest
        assertThat(ingest(SpecSource.of(zip.toString())).specs().getFirst().sha256())
                .isEqualTo(fromDir.specs().getFirst().sha256());
        assertThat(Files.list(Path.of(System.getProperty("java.io.tmpdir")))
                .filter(p -> p.getFileName().toString().startsWith("svc-spec-")).toList())
                .as("the staged files are deleted").isEmpty();
    }

    @Test
    void refsThatLeaveTheFilesAreRefusedNamingTheRefAndTheFile() {
        assertRefused(with("schemas/owner.yaml", "$ref: 'https://example.com/owner.yaml'"),
                "$ref 'https://example.com/owner.yaml' in schemas/owner.yaml points outside the spec's files");
        assertRefused(with("schemas/owner.yaml", "$ref: '/etc/passwd'"), "$ref '/etc/passwd' in schemas/owner.yaml "
                + "points outside");
        assertRefused(with("schemas/owner.yaml", "$ref: '../../secrets.yaml'"), "$ref '../../secrets.yaml' in "
                + "schemas/owner.yaml points outside");
        assertRefused(with("schemas/owner.yaml", "$ref: './missing.yaml#/Owner'"), "$ref './missing.yaml#/Owner' in "
                + "schemas/owner.yaml names schemas/missing.yaml, which is not among the spec's");
    }

    @Test
    void archiveEntriesOutsideTheArchiveRootsAndSizeAreRefused(@TempDir Path dir) throws Exception {
        Map<String, String> evil = new LinkedHashMap<>(pets());
        evil.put("../evil.yaml", "type: object\n");
        assertThatThrownBy(() -> SpecFiles.fromArchive("evil.zip", zip(evil), IngestOptions.DEFAULT_MAX_BYTES))
                .isInstanceOf(SpecIngestException.class).hasMessageContaining("'../evil.yaml' outside its own directory");

        Map<String, String> twoRoots = new LinkedHashMap<>(pets());
        twoRoots.put("other.yaml", "openapi: 3.0.3\ninfo: {title: x, version: '1'}\npaths: {}\n");
        assertThatThrownBy(() -> ingest(SpecSource.files("two", twoRoots, null)))
                .isInstanceOf(SpecIngestException.class).hasMessageContaining("has 2 root documents (openapi.yaml, "
                        + "other.yaml); name one");
        assertThat(ingest(SpecSource.files("two", twoRoots, "openapi.yaml")).catalog().operations()).hasSize(3);
        assertThatThrownBy(() -> ingest(SpecSource.files("two", twoRoots, "nope.yaml")))
                .hasMessageContaining("the root nope.yaml is not among the 9 files of two");

        Map<String, String> noRoot = new LinkedHashMap<>(pets());
        noRoot.remove("openapi.yaml");
        assertThatThrownBy(() -> ingest(SpecSource.files("none", noRoot, null)))
                .hasMessageContaining("has no file with an 'openapi' or 'swagger' field");

        Path specDir = write(dir.resolve("big"), pets());
        assertThatThrownBy(() -> SpecIngester.ingest(List.of(SpecSource.of(specDir.toString())),
                new IngestOptions("pets", "1.x", "pets", List.of("*"), 500, false, p -> { })))
                .isInstanceOf(SpecIngestException.class)
                .satisfies(e -> assertThat(((SpecIngestException) e).reason()).isEqualTo(Reason.SPEC_TOO_LARGE))
                .hasMessageContaining("over the cap of 500 bytes");

        Path notArchive = Files.writeString(dir.resolve("fake.zip"), "hello");
        assertThatThrownBy(() -> ingest(SpecSource.of(notArchive.toString())))
                .hasMessageContaining("is not a zip, tar or tar.gz archive of spec files");
        Path empty = Files.createDirectories(dir.resolve("empty"));
        assertThatThrownBy(() -> ingest(SpecSource.of(empty.toString())))
                .hasMessageContaining("has no .json, .yaml or .yml file");
    }

    @Test
    void aSwagger2SpecSplitIntoFiles() {
        Map<String, String> files = new LinkedHashMap<>();
        files.put("swagger.json", """
                {"swagger": "2.0", "info": {"title": "s", "version": "1"}, "basePath": "/v2",
                 "paths": {"/things": {"get": {"operationId": "listThings", "responses": {"200": {"description": "ok",
                   "schema": {"type": "array", "items": {"$ref": "defs/thing.json"}}}}}}}}
                """);
        files.put("defs/thing.json", "{\"type\": \"object\", \"properties\": {\"id\": {\"type\": \"string\"}}}");
        IngestResult r = ingest(SpecSource.files("s", files, null));
        assertThat(r.catalog().operations()).extracting(OperationDescriptor::opId).containsExactly("s.things.list_things");
        assertThat(r.specs().getFirst().format()).isEqualTo("swagger-2.0");
    }

    private static void assertRefused(Map<String, String> files, String message) {
        assertThatThrownBy(() -> ingest(SpecSource.files("pets", files, null)))
                .isInstanceOf(SpecIngestException.class).hasMessageContaining(message);
    }

    private static Map<String, String> with(String path, String text) {
        Map<String, String> files = new LinkedHashMap<>(pets());
        files.put(path, text + "\n");
        return files;
    }

    private static IngestResult ingest(SpecSource source) {
        String impl = source.location().startsWith("s") && !source.location().contains("pets") ? "s" : "pets";
        return SpecIngester.ingest(List.of(source), new IngestOptions(impl, "1.x", impl, List.of("*"),
                IngestOptions.DEFAULT_MAX_BYTES, false, p -> { }));
    }

    private static OperationDescriptor op(IngestResult r, String opId) {
        return r.catalog().operations().stream().filter(o -> o.opId().equals(opId)).findFirst().orElseThrow();
    }

    private static Path write(Path dir, Map<String, String> files) throws IOException {
        for (Map.Entry<String, String> f : files.entrySet()) {
            Path p = dir.resolve(f.getKey());
            Files.createDirectories(p.getParent());
            Files.writeString(p, f.getValue());
        }
        return dir;
    }

    private static Map<String, String> prefixed(String prefix, Map<String, String> files) {
        Map<String, String> out = new LinkedHashMap<>();
        files.forEach((k, v) -> out.put(prefix + k, v));
        return out;
    }

    static byte[] zip(Map<String, String> files) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
            for (Map.Entry<String, String> f : files.entrySet()) {
                zip.putNextEntry(new ZipEntry(f.getKey()));
                zip.write(f.getValue().getBytes(StandardCharsets.UTF_8));
                zip.closeEntry();
            }
        }
        return bytes.toByteArray();
    }

    static byte[] tarGz(Map<String, String> files) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (TarArchiveOutputStream tar = new TarArchiveOutputStream(new GZIPOutputStream(bytes))) {
            tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
            for (Map.Entry<String, String> f : files.entrySet()) {
                byte[] data = f.getValue().getBytes(StandardCharsets.UTF_8);
                TarArchiveEntry entry = new TarArchiveEntry(f.getKey());
                entry.setSize(data.length);
                tar.putArchiveEntry(entry);
                tar.write(data);
                tar.closeArchiveEntry();
            }
        }
        return bytes.toByteArray();
    }
}
