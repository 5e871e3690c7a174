/**
 * The tenant activity feed: producers hand an {@link dev.backplane.kernel.broadcast.Activity} to {@link
 * dev.backplane.kernel.broadcast.BroadcastFeed}, which queues it and stores it in batches ({@code
 * broadcast_events}; per-tenant overrides in {@code broadcast_overrides}, aggregate windows in {@code
 * broadcast_windows}) and announces each commit on the change feed, so the {@link
 * dev.backplane.kernel.broadcast.BroadcastHub} of every replica streams it to its SSE clients ({@link
 * dev.backplane.kernel.broadcast.BroadcastStream}). Activities carry no params and no results, only what anyone
 * in the tenant may see. Publishing never slows the work it reports, so the feed may lose what was queued when
 * the process was killed or what overflowed a full queue; it is not a record, the audit log is. Dispatches
 * reach it through {@code dispatch.DispatchEvents} (subscribed by the wiring); events, approvals, agent runs
 * and runbooks publish directly. The SQL lives in {@code BroadcastStore} (writing events), {@code
 * BroadcastQueryStore} (reading them), {@code WindowStore} (aggregation windows) and {@code OverrideStore}
 * (overrides); the feed, the writer, the summary and the overrides hold the rules.
 */
package dev.backplane.kernel.broadcast;
