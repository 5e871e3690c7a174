package dev.backplane.kernel.sensors;

import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Whether a sensor runs: an active sensor is claimed when due, a paused one is not. Pause and resume
 * move between the two, and so does the runner when a cadence no longer computes (to paused); only a
 * real move sets a new next run.
 */
enum SensorStatus {
    ACTIVE, PAUSED;

    /**
     * The status a sensor is inserted with while its grant is made: no run is claimed before the grant
     * exists, so none could fail the gate.
     */
    static final SensorStatus WHILE_GRANTING = PAUSED;

    String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The status with this wire name, if any (names are case-sensitive). */
    static Optional<SensorStatus> of(String wire) {
        return Arrays.stream(values()).filter(s -> s.wire().equals(wire)).findFirst();
    }

    /** The status of a create or update body: a wrong one is {@code invalid_sensor}. */
    static SensorStatus parse(String wire) {
        return of(wire).orElseThrow(() -> SensorErrors.INVALID_SENSOR.error("status must be active or paused",
                Map.of("field", "status")));
    }

    /** Whether a sensor in this status is claimed when it is due. */
    boolean runs() {
        return this == ACTIVE;
    }

    /**
     * Whether moving to {@code next} sets a new next run (the cadence's first from now): a resumed sensor
     * runs at its next cadence from now, not for the time it was paused; staying in the same status keeps
     * the due time it has.
     */
    boolean reschedulesOn(SensorStatus next) {
        return this != next;
    }
}
