package dev.backplane.kernel.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.backplane.plugin.api.ProductProbe;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The catalog index's product probes: read from an entry's optional {@code probe} object. */
class CatalogIndexTest {

    @Test
    void aProbeObjectIsReadAndItsAbsenceIsNoProbe(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("index.json"), """
                {"connectors": [
                  {"product": "harbor", "version": "2.x", "specs": ["h.yaml"],
                   "probe": {"path": "/api/v2.0/systeminfo", "version_pointer": "/harbor_version", "vendor": "Harbor",
                             "expect": {"/harbor_version": "^v?\\\\d"}}},
                  {"product": "plain", "version": "1.x", "specs": ["p.yaml"]}]}""");
        CatalogIndex index = CatalogIndex.load(dir.resolve("index.json"));
        assertThat(index.find("harbor/2.x").orElseThrow().probe()).contains(new ProductProbe("/api/v2.0/systeminfo",
                "/harbor_version", Optional.of("Harbor"), Map.of("/harbor_version", "^v?\\d")));
        assertThat(index.find("plain/1.x").orElseThrow().probe()).isEmpty();
    }

    @Test
    void aProbeWithoutItsVersionPointerMakesTheIndexUnusableLoudlyNotHalfRead(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("index.json"), """
                {"connectors": [{"product": "harbor", "version": "2.x", "specs": ["h.yaml"],
                   "probe": {"path": "/api/v2.0/systeminfo"}}]}""");
        assertThat(CatalogIndex.load(dir.resolve("index.json")).entries()).isEmpty();
    }

    @Test
    void theShippedIndexProbesHarborAndArgoCdAtTheirVersionRoutes() {
        CatalogIndex shipped = CatalogIndex.load(Path.of("../plugin-repo/catalog-index.json"));
        assertThat(shipped.find("harbor/2.x").orElseThrow().probe().orElseThrow().path()).isEqualTo("/api/v2.0/systeminfo");
        assertThat(shipped.find("argocd/3.x").orElseThrow().probe().orElseThrow().versionPointer()).isEqualTo("/Version");
    }
}
