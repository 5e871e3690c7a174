/**
 * The way out: every byte a plugin sends leaves through here. {@link dev.backplane.kernel.egress.SsrfGuard}
 * refuses private and special-purpose addresses unless the deploy's allowlist admits them, {@link
 * dev.backplane.kernel.egress.GuardedSocketFactory} checks the address actually dialled at every connect, and
 * {@link dev.backplane.kernel.egress.EgressProxy} routes the JDK HTTP client lent to plugins through that
 * factory, so a DNS answer that changed since registration cannot reach a forbidden address. {@link
 * dev.backplane.kernel.egress.TargetTls} builds the TLS toward one target from its {@code verify_tls}, {@code
 * tls_ca_pin} and {@code tls_server_name}. The package owns no tables and decides nothing about who may call
 * what: {@code plugins} lends its clients and sockets, and targets and docs check a host against the guard
 * when it is set.
 */
package dev.backplane.kernel.egress;
