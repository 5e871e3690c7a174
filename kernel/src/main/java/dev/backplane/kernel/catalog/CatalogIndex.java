package dev.backplane.kernel.catalog;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.util.JsonMapping;
import dev.backplane.plugin.api.AuthScheme;
import dev.backplane.plugin.api.OperationGroup;
import dev.backplane.plugin.api.ProductDiscovery;
import dev.backplane.plugin.api.ProductProbe;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The catalog index ({@code plugin-repo/catalog-index.json}): the vendor API connectors this deploy
 * knows how to ingest by name ({@code svc connector ingest --catalog keycloak/23.x}) — where each
 * spec is fetched from, the implementation id, default port, auth scheme and the spec versions
 * declared compatible. A connector named here but never ingested answers {@code connector_not_ingested}.
 * Spec locations are URLs or paths relative to the index file.
 */
public final class CatalogIndex {

    private static final System.Logger LOG = System.getLogger(CatalogIndex.class.getName());

    /**
     * One ingestible connector.
     *
     * @param product product token ({@code keycloak})
     * @param version version label ({@code 23.x})
     * @param implId implementation id; the connector id is {@code <implId>-<version>}
     * @param defaultPort port of a target of this product when none is given
     * @param specs spec locations (absolute paths or URLs)
     * @param compatibleVersions spec info.versions declared compatible with the label
     * @param auth the auth scheme requests use
     * @param description what it is
     * @param curatedGroups operation groups by key whose names and when-to-use texts replace the ones derived
     *     from the spec's tags (an operator picks a group by what it says, and a tag such as
     *     {@code applicationservice} says little)
     * @param credentialReads operations ({@code GET /v1/credentials}) whose answers carry secret values: ingested
     *     as {@code credential_read}, so {@code enable-reads} leaves them off and a call parks for approval
     * @param notCredentialReads reads the ingest's credential-read heuristic would mark but that the index has
     *     audited against the vendor as returning no secret values (each with its reason in the index)
     * @param probe how the engine identifies the product behind a target (its version route), if the entry says
     * @param discovery how the engine lists the product's members through a target ({@code svc targets discover}),
     *     if the entry says
     */
    public record Entry(String product, String version, String implId, int defaultPort, List<String> specs,
                        List<String> compatibleVersions, AuthScheme auth, String description,
                        Map<String, OperationGroup> curatedGroups, List<String> credentialReads,
                        List<String> notCredentialReads, Optional<ProductProbe> probe,
                        Optional<ProductDiscovery> discovery) {
        public String connectorId() {
            return implId + "-" + version;
        }
    }

    private final Map<String, Entry> byKey;

    private CatalogIndex(Map<String, Entry> byKey) {
        this.byKey = Map.copyOf(byKey);
    }

    public static CatalogIndex empty() {
        return new CatalogIndex(Map.of());
    }

    /** Reads the index; a missing file is an empty index, a malformed one is logged loudly and ignored. */
    public static CatalogIndex load(Path file) {
        if (!Files.isRegularFile(file)) {
            LOG.log(Level.INFO, "no catalog index at " + file.toAbsolutePath() + "; --catalog ingest is unavailable");
            return empty();
        }
        try {
            JsonNode root = JsonMapping.mapper().readTree(file.toFile());
            Path base = file.toAbsolutePath().getParent();
            Map<String, Entry> entries = new LinkedHashMap<>();
            for (JsonNode n : root.path("connectors")) {
                Entry e = entry(n, base);
                entries.put(e.product() + "/" + e.version(), e);
            }
            return new CatalogIndex(entries);
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.ERROR, "CATALOG INDEX " + file.toAbsolutePath() + " is unusable: " + e.getMessage());
            return empty();
        }
    }

    private static Entry entry(JsonNode n, Path base) {
        String product = required(n, "product");
        String version = required(n, "version");
        List<String> specs = new ArrayList<>();
        n.path("specs").forEach(s -> {
            String loc = s.asText();
            specs.add(loc.matches("^[a-zA-Z][a-zA-Z0-9+.-]*://.*") || loc.startsWith("file:") ? loc
                    : base.resolve(loc).normalize().toString());
        });
        if (specs.isEmpty()) {
            throw new IllegalArgumentException(product + "/" + version + " names no specs");
        }
        List<String> compat = new ArrayList<>();
        n.path("spec_info_versions_compatible").forEach(s -> compat.add(s.asText()));
        JsonNode a = n.path("auth");
        String scheme = a.path("scheme").asText("none");
        List<String> fields = new ArrayList<>();
        a.path("secret_fields").forEach(f -> fields.add(f.asText()));
        Map<String, String> settings = new LinkedHashMap<>();
        a.path("settings").properties().forEach(e -> settings.put(e.getKey(), e.getValue().asText()));
        Map<String, OperationGroup> groups = new LinkedHashMap<>();
        n.path("groups").properties().forEach(g -> groups.put(g.getKey(), new OperationGroup(g.getKey(),
                required(g.getValue(), "name"), g.getValue().path("when_to_use").asText(""))));
        List<String> credentialReads = new ArrayList<>();
        n.path("credential_reads").forEach(c -> credentialReads.add(c.asText().strip()));
        List<String> notCredentialReads = new ArrayList<>();
        n.path("not_credential_reads").properties().forEach(c -> {
            if (c.getValue().asText("").isBlank()) {
                throw new IllegalArgumentException("not_credential_reads '" + c.getKey() + "' of " + product + "/"
                        + version + " lacks its reason (why the answer carries no secret value)");
            }
            notCredentialReads.add(c.getKey().strip());
        });
        return new Entry(product, version, n.path("impl").asText(product), n.path("default_port").asInt(443),
                List.copyOf(specs), List.copyOf(compat),
                new AuthScheme(scheme, fields.isEmpty() ? AuthScheme.defaultSecretFields(scheme) : fields, settings),
                n.path("description").asText(""), Map.copyOf(groups), List.copyOf(credentialReads),
                List.copyOf(notCredentialReads), CatalogIndexHints.probe(n.path("probe")),
                CatalogIndexHints.discovery(n.path("discovery")));
    }

    /** The field's text; an entry without it is refused. */
    static String required(JsonNode n, String field) {
        String v = n.path(field).asText("");
        if (v.isBlank()) {
            throw new IllegalArgumentException("an entry lacks '" + field + "'");
        }
        return v;
    }

    /** By {@code <product>/<version>} as {@code --catalog} names it. */
    public Optional<Entry> find(String productSlashVersion) {
        return Optional.ofNullable(byKey.get(productSlashVersion));
    }

    public Optional<Entry> byConnectorId(String connectorId) {
        return byKey.values().stream().filter(e -> e.connectorId().equals(connectorId)).findFirst();
    }

    public List<Entry> entries() {
        return List.copyOf(byKey.values());
    }
}
