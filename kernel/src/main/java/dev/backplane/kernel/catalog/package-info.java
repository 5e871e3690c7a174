/**
 * The connector catalog: {@link dev.backplane.kernel.catalog.ConnectorRegistry} holds the connectors this
 * kernel serves (those of plugin jars, and vendor API specs ingested by {@link
 * dev.backplane.kernel.catalog.SpecIngestService} into {@code catalog_ingested_connectors}), and {@link
 * dev.backplane.kernel.catalog.CatalogService} each tenant's view and review of them ({@code
 * catalog_connector_reviews}, {@code catalog_operation_overrides}, {@code catalog_group_edits}). Everything is
 * default-deny: no review row means staged, no override means the operation is not enabled. {@link
 * dev.backplane.kernel.catalog.Implementations} is the resolver at dispatch, picking the enabled connector that
 * serves a call to a target (the target's preferred_impl_id, then the tenant's preference in {@code
 * connector_preferences}, then the most specific version range), and operation search ranks a connector's
 * operations lexically and by their embeddings. The catalog describes, reviews and resolves connectors but
 * never calls one; calls go through {@code dispatch}.
 */
package dev.backplane.kernel.catalog;
