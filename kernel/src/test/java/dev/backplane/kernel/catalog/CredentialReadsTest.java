package dev.backplane.kernel.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.backplane.plugin.api.Catalog;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The catalog index's credential_reads: GETs whose answers carry stored secrets are ingested as credential reads. */
class CredentialReadsTest {

    private static final Catalog DERIVED = new Catalog(List.of(new OperationGroup("credentials", "credentials", "")),
            List.of(op("fleet.credentials.get_credentials", "/v1/credentials"),
                    op("fleet.credentials.get_credentials_tasks", "/v1/credentials/tasks")));

    private static OperationDescriptor op(String opId, String path) {
        return new OperationDescriptor(opId, "credentials", "", SafetyLevel.SAFE, false, OpClass.READ,
                "{\"type\": \"object\"}", new OperationShape.Http("GET", path), ResultKind.OBJECT);
    }

    @Test
    void aListedReadBecomesACredentialReadThatParksAndIsNotReadClass() {
        List<String> warnings = new ArrayList<>();
        Catalog c = SpecIngestService.credentialReads(DERIVED, List.of("GET /v1/credentials", "GET /v1/nosuch"), warnings);
        OperationDescriptor secret = c.operations().getFirst();
        assertThat(secret.opClass()).isEqualTo(OpClass.CREDENTIAL_READ);
        assertThat(secret.requiresApproval()).isTrue();
        assertThat(secret.isReadClass()).as("enable-reads leaves it off").isFalse();
        assertThat(c.operations().get(1)).isEqualTo(DERIVED.operations().get(1));
        assertThat(warnings).containsExactly(
                "the catalog index marks 'GET /v1/nosuch' as a credential read, which the spec does not have");
        assertThat(SpecIngestService.credentialReads(DERIVED, List.of(), warnings)).isSameAs(DERIVED);
    }

    @Test
    void theIndexReadsThemAndTheShippedSddcManagerEntryMarksItsPasswordReads(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("index.json"), """
                {"connectors": [{"product": "fleet", "version": "9.x", "specs": ["fleet.json"],
                  "credential_reads": [" GET /v1/credentials "]}]}""");
        assertThat(CatalogIndex.load(dir.resolve("index.json")).find("fleet/9.x").orElseThrow().credentialReads())
                .containsExactly("GET /v1/credentials");

        CatalogIndex shipped = CatalogIndex.load(Path.of("../plugin-repo/catalog-index.json"));
        assertThat(shipped.find("sddc-manager/9.x").orElseThrow().credentialReads())
                .contains("GET /v1/credentials", "GET /v1/credentials/{id}");
        assertThat(shipped.find("sddc-manager/9.x").orElseThrow().specs().getFirst())
                .endsWith("specs/sddc-manager/swagger.json");
    }
}
