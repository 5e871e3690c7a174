package dev.backplane.kernel.sensors;

import java.util.UUID;

/**
 * Told after a sensor's evaluation changed its state (committed): dashboards recompute their roll-up.
 * Declared here so that sensors do not depend on what reacts to them.
 */
@FunctionalInterface
public interface SensorStateListener {
    void changed(UUID tenant, UUID sensorId, String from, String to);
}
