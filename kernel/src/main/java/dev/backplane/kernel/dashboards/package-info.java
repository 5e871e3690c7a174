/**
 * Dashboards: named sets of sensors rolled up to their worst state ({@code skip} ignored, an empty set
 * {@code unknown}); a roll-up that worsens to the dashboard's notify_min_state or beyond mails its
 * recipients (each checked against the tenant's mail-recipient policy) at most once per suppression
 * window, and starts a run of the bound investigator agent with the failing sensors' evidence. Kept
 * apart from {@code sensors}: sensors know nothing of dashboards, which listen to their state changes.
 */
package dev.backplane.kernel.dashboards;
