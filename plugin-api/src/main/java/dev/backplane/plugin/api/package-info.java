/**
 * The connector SPI of the svc backplane: the only kernel types a plugin sees.
 *
 * <p>Kept small and stable; an incompatible change bumps {@link dev.backplane.plugin.api.PluginApiVersion#CURRENT}'s
 * major, and the kernel then refuses plugins built for the old major, visibly.
 */
package dev.backplane.plugin.api;
