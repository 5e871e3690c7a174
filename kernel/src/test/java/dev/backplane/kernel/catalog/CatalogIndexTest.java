package dev.backplane.kernel.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.backplane.plugin.api.ProductDiscovery;
import dev.backplane.plugin.api.ProductProbe;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The catalog index's product probes and discovery declarations: read from an entry's optional {@code probe}
 * and {@code discovery} objects; a malformed one makes the index unusable loudly.
 */
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
    void aDiscoveryObjectIsReadAndAMalformedOneIsRefused(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("index.json"), """
                {"connectors": [
                  {"product": "pve", "version": "9.x", "specs": ["p.yaml"],
                   "discovery": {"operation": "GET /cluster/status", "items": "/data", "where": {"/type": "^node$"},
                                 "name": "/name", "host": "/ip", "port": "/port", "seed": {"/local": "^1$"}}},
                  {"product": "plain", "version": "1.x", "specs": ["p.yaml"]}]}""");
        CatalogIndex index = CatalogIndex.load(dir.resolve("index.json"));
        assertThat(index.find("pve/9.x").orElseThrow().discovery()).contains(new ProductDiscovery("GET /cluster/status",
                "/data", Map.of("/type", "^node$"), "/name", "/ip", Optional.of("/port"), Optional.empty(),
                Map.of("/local", "^1$")));
        assertThat(index.find("plain/1.x").orElseThrow().discovery()).isEmpty();

        for (String bad : new String[] {
                "{\"operation\": \"POST /nodes\", \"name\": \"/n\", \"host\": \"/ip\"}",   // discovery only reads
                "{\"operation\": \"GET /nodes/{node}\", \"name\": \"/n\", \"host\": \"/ip\"}",
                "{\"operation\": \"GET /nodes\", \"name\": \"n\", \"host\": \"/ip\"}",     // not a pointer
                "{\"operation\": \"GET /nodes\", \"name\": \"/n\"}",                            // no host
                "{\"operation\": \"GET /nodes\", \"name\": \"/n\", \"host\": \"/ip\", \"hosts\": \"/x\"}",
                "{\"operation\": \"GET /nodes\", \"name\": \"/n\", \"host\": \"/ip\", \"where\": {\"/t\": \"(\"}}"}) {
            Files.writeString(dir.resolve("bad.json"), "{\"connectors\": [{\"product\": \"pve\", \"version\": \"9.x\", "
                    + "\"specs\": [\"p.yaml\"], \"discovery\": " + bad + "}]}");
            assertThat(CatalogIndex.load(dir.resolve("bad.json")).entries()).as(bad).isEmpty();
        }
    }

    @Test
    void theShippedIndexDeclaresProxmoxDiscoveryOfTheClustersNodes() {
        CatalogIndex shipped = CatalogIndex.load(Path.of("../plugin-repo/catalog-index.json"));
        ProductDiscovery d = shipped.find("proxmox/9.x").orElseThrow().discovery().orElseThrow();
        assertThat(d.operation()).isEqualTo("GET /cluster/status");
        assertThat(d.where()).containsEntry("/type", "^node$");
        assertThat(shipped.entries().stream().filter(e -> e.discovery().isPresent()).map(CatalogIndex.Entry::product))
                .containsExactly("proxmox");
    }

    @Test
    void theShippedIndexProbesHarborAndArgoCdAtTheirVersionRoutes() {
        CatalogIndex shipped = CatalogIndex.load(Path.of("../plugin-repo/catalog-index.json"));
        assertThat(shipped.find("harbor/2.x").orElseThrow().probe().orElseThrow().path()).isEqualTo("/api/v2.0/systeminfo");
        assertThat(shipped.find("argocd/3.x").orElseThrow().probe().orElseThrow().versionPointer()).isEqualTo("/Version");
    }
}
