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
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The catalog index's curated groups: read from the index, put in place of the tag-derived ones at ingest. */
class CuratedGroupsTest {

    private static final Catalog DERIVED = new Catalog(List.of(
            new OperationGroup("project", "project", "Operations tagged 'project'"),
            new OperationGroup("robot", "robot", "Operations tagged 'robot'")),
            List.of(new OperationDescriptor("harbor.project.list_projects", "project", "List projects", SafetyLevel.SAFE,
                    false, OpClass.READ, "{\"type\": \"object\"}", new OperationShape.Http("GET", "/projects"),
                    ResultKind.SET)));

    @Test
    void curatedNamesReplaceDerivedOnesAndUnknownKeysAreWarnings() {
        List<String> warnings = new ArrayList<>();
        Catalog c = SpecIngestService.curated(DERIVED, Map.of(
                "project", new OperationGroup("project", "Projects", "Harbor projects"),
                "nosuch", new OperationGroup("nosuch", "Gone", "")), warnings);
        assertThat(c.groups()).containsExactly(new OperationGroup("project", "Projects", "Harbor projects"),
                new OperationGroup("robot", "robot", "Operations tagged 'robot'"));
        assertThat(c.operations()).isEqualTo(DERIVED.operations());
        assertThat(warnings).containsExactly("the catalog index curates group 'nosuch', which the spec does not have");
        assertThat(SpecIngestService.curated(DERIVED, Map.of(), warnings)).isSameAs(DERIVED);
    }

    @Test
    void theIndexReadsGroupsAndTheShippedIndexCuratesHarborAndArgoCd(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("index.json"), """
                {"connectors": [{"product": "harbor", "version": "2.x", "specs": ["harbor.yaml"],
                  "groups": {"project": {"name": "Projects", "when_to_use": "Harbor projects"}}}]}""");
        CatalogIndex.Entry e = CatalogIndex.load(dir.resolve("index.json")).find("harbor/2.x").orElseThrow();
        assertThat(e.curatedGroups()).containsEntry("project", new OperationGroup("project", "Projects", "Harbor projects"));

        CatalogIndex shipped = CatalogIndex.load(Path.of("../plugin-repo/catalog-index.json"));
        assertThat(shipped.find("harbor/2.x").orElseThrow().curatedGroups()).containsKeys("project", "artifact");
        assertThat(shipped.find("argocd/3.x").orElseThrow().curatedGroups()).containsKeys("applicationservice");
        for (String shippedSpec : List.of("proxmox/9.x", "hetzner-robot/1.x")) {
            CatalogIndex.Entry entry = shipped.find(shippedSpec).orElseThrow();
            assertThat(Path.of(entry.specs().getFirst())).as("a spec shipped beside the index resolves offline")
                    .isRegularFile();
            assertThat(entry.curatedGroups()).isNotEmpty();
        }
    }

    @Test
    void specsShippedBesideTheIndexResolveToItsFilesSoIngestWorksOffline() {
        CatalogIndex shipped = CatalogIndex.load(Path.of("../plugin-repo/catalog-index.json"));
        for (String name : List.of("vcenter/9.x", "nsx/4.x")) {
            CatalogIndex.Entry e = shipped.find(name).orElseThrow();
            assertThat(e.specs()).singleElement().satisfies(spec -> assertThat(Path.of(spec)).isAbsolute()
                    .isRegularFile().startsWith(Path.of("../plugin-repo/specs").toAbsolutePath().normalize()));
        }
        assertThat(shipped.find("vcenter/9.x").orElseThrow().curatedGroups()).containsKeys("vm", "appliance", "tagging");
        assertThat(shipped.find("nsx/4.x").orElseThrow().curatedGroups()).containsKeys("segment", "firewall", "system");
    }
}
