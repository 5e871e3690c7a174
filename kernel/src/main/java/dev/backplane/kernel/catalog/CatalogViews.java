package dev.backplane.kernel.catalog;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The JSON shapes of the catalog routes. */
public final class CatalogViews {

    private CatalogViews() {
    }

    /**
     * One row of {@code svc connector list}: a loaded connector, or a broken plugin jar.
     *
     * @param connectorId {@code <impl_id>-<version>}, or the id a broken jar claims
     * @param status staged, enabled, disabled — or broken
     * @param source {@code plugin} (a plugin jar) or {@code ingested} (from a vendor API spec)
     * @param reason why a plugin is broken, or why an ingested connector cannot be served
     */
    public record ConnectorSummary(String connectorId, Optional<String> implId, Optional<String> version,
                                   List<String> products, List<String> supportedVersions, String status,
                                   int operationCount, int enabledOpCount, String source, Optional<String> pluginFile,
                                   Optional<String> pluginVersion, Optional<String> reason) {
    }

    /** A group as the tenant sees it. */
    public record GroupView(String groupKey, String displayName, String whenToUse, int operationCount,
                            int enabledOpCount, boolean partial) {
    }

    /**
     * {@code svc connector review}: everything an admin needs to decide.
     *
     * @param auth an ingested connector's auth scheme, the credential fields it reads (names) and its settings
     *     (header, prefix, login path ...; no secret value); null for a plugin's connector
     * @param basePath the path every operation of an ingested connector is sent under; null for a plugin's
     */
    public record Review(ConnectorSummary connector, List<String> secretFields, List<GroupView> groups,
                         List<OperationView> operations, List<JsonNode> classificationRules, Map<String, Object> auth,
                         String basePath) {
    }

    /** The result of a review action. */
    public record ReviewChange(String connectorId, String previousStatus, String status, int operationsChanged,
                               String message) {
    }

    /** An operation search hit. */
    public record SearchHit(String opId, String safetyLevel, boolean requiresApproval, String description,
                            String groupKey, boolean isEnabled, double score) {
    }

    /**
     * Operation search results.
     *
     * @param retrieval how the hits were ranked: {@code hybrid} (words and embeddings fused), or {@code lexical}
     *     (words only) while the connector's operation embeddings are not ready yet ({@code dense}: the
     *     retrieval eval measuring one side)
     * @param vectorsReady whether the connector's operation embeddings are ready
     */
    public record SearchResult(String connectorId, String query, Optional<String> group, int limit,
                               List<SearchHit> hits, String retrieval, boolean vectorsReady) {
    }

    /** A product and the implementations that serve it. */
    public record CatalogEntry(String product, int defaultPort, List<Implementation> implementations) {
    }

    /** One implementation of a product. */
    public record Implementation(String connectorId, String implId, String version, List<String> supportedVersions) {
    }
}
