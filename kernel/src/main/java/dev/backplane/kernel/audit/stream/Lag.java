package dev.backplane.kernel.audit.stream;

/**
 * How far a sink is behind the chain.
 *
 * @param position the last chain position the sink acknowledged
 * @param head the newest chain position
 * @param rows chained rows not yet acknowledged (head minus position: chain positions are consecutive but for a
 *             rolled-back chaining, so this is an upper bound)
 * @param seconds how long the oldest unacknowledged row has waited, 0 when caught up
 */
record Lag(long position, long head, long rows, double seconds) {
}
