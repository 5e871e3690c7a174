/**
 * Sensors: a governed read operation run on a cadence (interval or cron) through the dispatch
 * pipeline as the sensor's own service principal, and an {@link dev.backplane.kernel.sensors.Assertion}
 * mapping each result to ok, degraded, critical, unknown or skip. Results are kept for a retention
 * period; state changes are told to {@link dev.backplane.kernel.sensors.SensorStateListener}s (dashboards).
 */
package dev.backplane.kernel.sensors;
