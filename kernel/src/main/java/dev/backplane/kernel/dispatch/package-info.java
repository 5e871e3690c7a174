/**
 * The one dispatch pipeline every operation call takes, whatever surface made it: {@link
 * dev.backplane.kernel.dispatch.Dispatcher} resolves the connector, validates the params, asks the policy
 * gate, resolves the credential, begins the audit row (fail-closed), calls the plugin, reduces the result
 * ({@link dev.backplane.kernel.dispatch.Reducer}), finishes the audit row and tells the {@link
 * dev.backplane.kernel.dispatch.DispatchEvents} subscribers. {@link dev.backplane.kernel.dispatch.OperationCalls}
 * starts a call now, in the background with a run handle ({@link dev.backplane.kernel.dispatch.AsyncRuns},
 * {@code dispatch_runs}: leased, and failed but never re-dispatched when their kernel dies) or when an
 * approval releases it. Apart from a target's probe, nothing outside this package calls a plugin ({@code
 * ArchitectureTest} holds it to that); route classes, MCP and the wiring hold no dispatch logic.
 */
package dev.backplane.kernel.dispatch;
