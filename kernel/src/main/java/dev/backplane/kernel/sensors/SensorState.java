package dev.backplane.kernel.sensors;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * What an evaluation says about a sensor's check (its wire names are lower case), and when recording
 * one changes the state a sensor shows — the change its {@link SensorStateListener}s are told about.
 */
enum SensorState {
    OK, DEGRADED, CRITICAL, UNKNOWN, SKIP;

    /** The wire names, in order, as error messages list them. */
    static final String NAMES = "ok, degraded, critical, unknown, skip";
    /** What a sensor shows before its first run, and what a run that could not judge records. */
    static final SensorState INITIAL = UNKNOWN;

    String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The state with this wire name, if any (names are case-sensitive: {@code OK} is not one). */
    static Optional<SensorState> of(String wire) {
        return Arrays.stream(values()).filter(s -> s.wire().equals(wire)).findFirst();
    }

    /** The state of a stored row; the table's check constraint admits the wire names only. */
    static SensorState stored(String wire) {
        return of(wire).orElseThrow(() -> new IllegalStateException("stored sensor state '" + wire + "' is not one of "
                + NAMES));
    }

    /**
     * Whether recording this state changes what the sensor shows: only a result for the newest due time
     * ({@code newest}) counts — one that finished after a later one does not — and only a different state.
     */
    boolean changes(SensorState shown, boolean newest) {
        return newest && shown != this;
    }
}
