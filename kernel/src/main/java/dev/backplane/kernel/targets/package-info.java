/**
 * The target registry of each tenant ({@code targets_targets}, {@code targets_aliases}): {@link
 * dev.backplane.kernel.targets.TargetService} creates, describes by name or alias, lists, patches, deletes and
 * imports all-or-nothing, validating every write whole (product advertised by a connector, TLS options, SSRF guard,
 * secret_ref scope) before anything is stored; {@code TargetStore} holds the SQL, every statement scoped by tenant.
 * {@link dev.backplane.kernel.targets.ProbeService} probes a target through the connector the resolver picks and
 * alone writes its fingerprint, and finds further targets through connectors that offer discovery, registering none
 * of them; outside the dispatcher it is the one caller of a connector, and credentials are resolved for its call
 * only. {@link dev.backplane.kernel.targets.TargetSecretRoutes} stage a target's secret at its secret_ref and are
 * write-only: no route or agent tool reads one back.
 */
package dev.backplane.kernel.targets;
