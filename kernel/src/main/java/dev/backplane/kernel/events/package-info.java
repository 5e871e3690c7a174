/**
 * Inbound events: event sources ({@link dev.backplane.kernel.events.EventSources}, {@code event_sources}; a
 * source's secret lives in the credential store, never in the database), the ingest route senders call
 * ({@link dev.backplane.kernel.events.EventIngest}: slug, body cap, authentication by {@link
 * dev.backplane.kernel.events.WebhookAuth}, the per-source rate limit in {@code event_rate_buckets}, parse,
 * de-duplication, then the normalised event and its audit row in one transaction), and the event log ({@code
 * events}, read and swept by {@link dev.backplane.kernel.events.EventLog}). {@link
 * dev.backplane.kernel.events.EventDrain} hands each accepted event at least once to the kernel's subscribers
 * (today the scheduler's event triggers), from delivery rows ({@code event_deliveries}) any replica may take.
 * Events start work only through those subscribers; this package calls no operation.
 */
package dev.backplane.kernel.events;
