package dev.backplane.kernel.catalog;

import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.plugins.LoadedConnector;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The answer for a connector id that names no connector the tenant sees: {@code connector_not_ingested} with the
 * command that ingests it when the catalog index names it, else {@code unknown_connector} with the valid ids and,
 * when the id is a product or implementation, the connector ids it has.
 */
final class MissingConnector {

    private MissingConnector() {
    }

    static DomainException error(String connectorId, CatalogIndex index, Collection<LoadedConnector> visible) {
        Optional<CatalogIndex.Entry> known = index.byConnectorId(connectorId);
        if (known.isPresent()) {
            String verb = "svc connector ingest --catalog " + known.get().product() + "/" + known.get().version();
            return CatalogErrors.CONNECTOR_NOT_INGESTED.error("connector " + connectorId + " is registered in the "
                            + "catalog index but its API spec was never ingested; ingest it with: " + verb)
                    .withExtras("next_step", Map.of("verb", verb, "why", "ingest the vendor API spec; its operations "
                            + "then arrive staged and default-deny for review"));
        }
        List<String> valid = visible.stream().map(LoadedConnector::connectorId).toList();
        List<String> forProduct = visible.stream()
                .filter(x -> x.descriptor().products().stream().anyMatch(p -> p.token().equals(connectorId))
                        || x.descriptor().implId().equals(connectorId))
                .map(LoadedConnector::connectorId).toList();
        String hint = forProduct.isEmpty() ? "" : "; '" + connectorId + "' is a product or implementation, "
                + "its connector id is " + String.join(" or ", forProduct);
        return CatalogErrors.UNKNOWN_CONNECTOR.error("no connector '" + connectorId + "'" + hint
                        + " (connector ids have the form <impl_id>-<version>)")
                .withExtras("valid_connector_ids", valid);
    }
}
