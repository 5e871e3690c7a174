/**
 * The web console under {@code /ui}: OIDC sign-in with PKCE ({@link
 * dev.backplane.kernel.console.ConsoleSignInRoutes}), sessions in PostgreSQL ({@link
 * dev.backplane.kernel.console.ConsoleSessions}, SQL in {@link dev.backplane.kernel.console.ConsoleSessionStore},
 * {@code console_sessions}) re-validated with the identity provider, values sealed with the console's key ({@link
 * dev.backplane.kernel.console.Seal}, key row in {@link dev.backplane.kernel.console.SealKeyStore}, {@code
 * console_keys}), CSRF, and server-rendered pages ({@link dev.backplane.kernel.console.ConsoleRoutes}): home and the
 * live-update stream, approvals, the audit explorer, runs, events, topology, settings (the tenant's name, approval
 * notifications), the kb, spec ingest and connectors, one {@code Console*Routes} class each, styled by Pico CSS and
 * drawn by Cytoscape.js from their WebJars. A console user is the caller the REST authenticator makes of
 * the login's access token, so the console grants nothing REST would not. Pages call the same service methods
 * as the REST routes and record the same governance audit rows under the REST route's name; the console holds
 * no rules of its own.
 */
package dev.backplane.kernel.console;
