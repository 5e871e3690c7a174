/**
 * The application: {@link dev.backplane.kernel.app.Main} starts a {@link dev.backplane.kernel.app.Kernel}
 * (database, services, HTTP server), {@link dev.backplane.kernel.app.KernelServices} builds every service
 * with plain constructors in dependency order (no dependency-injection container) and {@link
 * dev.backplane.kernel.app.KernelRoutes} puts the REST and MCP surfaces on top. It also holds what belongs to
 * the process rather than to a capability: the settings ({@link dev.backplane.kernel.app.Setting}, loaded by
 * {@code KernelConfig}), health, info, whoami and the feature-maturity index, metrics, tracing, logging,
 * graceful shutdown and {@code Main migrate}. It owns no tables and no capability's rules; last in the
 * layer list, it may use every other package and none may use it.
 */
package dev.backplane.kernel.app;
