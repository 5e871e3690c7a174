/**
 * Connector plugins at run time: {@link dev.backplane.kernel.plugins.PluginLoading} loads each jar of the plugin
 * directory into its own class loader (whose parent shows only the JDK, PF4J and the SPI), yielding its connectors
 * and spec engines or a {@link dev.backplane.kernel.plugins.BrokenPlugin} with the reason. {@link
 * dev.backplane.kernel.plugins.PluginCalls} is the one wrapper of every call into plugin code (the plugin's class
 * loader, a timeout, exceptions mapped to a code), and {@link dev.backplane.kernel.plugins.ConnectorSessions} opens
 * a session to one target for one call, lending a context whose network goes through {@code egress} and taking the
 * call's credential out of whatever comes back. No tables and no rules about who may call what: that is {@code
 * governance}, and only the dispatcher and the probe in {@code targets} open sessions.
 */
package dev.backplane.kernel.plugins;
