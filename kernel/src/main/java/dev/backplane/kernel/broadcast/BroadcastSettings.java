package dev.backplane.kernel.broadcast;

import java.time.Duration;

/**
 * The broadcast settings of one kernel ({@code broadcast.*}): what the feed stores and what the hub streams.
 *
 * @param aggregateWindow the window over which an override with detail {@code aggregate} collapses matching events
 * @param retentionDays how long broadcast activity events are kept
 * @param subscriberBuffer events a stream may have waiting before it is dropped as a slow consumer
 * @param maxStreamsPerTenant streams a tenant may have open on one replica
 */
public record BroadcastSettings(Duration aggregateWindow, int retentionDays, int subscriberBuffer,
                                int maxStreamsPerTenant) {
}
