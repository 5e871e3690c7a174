package dev.backplane.kernel.sensors;

import java.util.UUID;

/**
 * Told before a sensor is deleted; the returned action runs after the delete committed (dashboards
 * recompute the stored roll-up of each dashboard that held it). Declared here so that sensors do not
 * depend on what reacts to them.
 */
@FunctionalInterface
public interface SensorDeletionListener {
    Runnable deleting(UUID tenant, UUID sensorId);
}
