package dev.backplane.kernel.sensors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.backplane.kernel.errors.DomainException;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** A sensor's status (active, paused) and its evaluation state (ok .. skip): wire names and transitions. */
class SensorStatusTest {

    @Test
    void onlyAnActiveSensorRunsAndASensorBeingGrantedIsNotActiveYet() {
        assertThat(SensorStatus.ACTIVE.runs()).isTrue();
        assertThat(SensorStatus.PAUSED.runs()).isFalse();
        assertThat(SensorStatus.WHILE_GRANTING.runs()).isFalse();
    }

    @Test
    void pauseAndResumeRescheduleButStayingPutKeepsTheDueTime() {
        assertThat(SensorStatus.PAUSED.reschedulesOn(SensorStatus.ACTIVE)).isTrue();
        assertThat(SensorStatus.ACTIVE.reschedulesOn(SensorStatus.PAUSED)).isTrue();
        assertThat(SensorStatus.ACTIVE.reschedulesOn(SensorStatus.ACTIVE)).isFalse();
        assertThat(SensorStatus.PAUSED.reschedulesOn(SensorStatus.PAUSED)).isFalse();
    }

    @Test
    void statusesHaveTheirWireNamesAndAWrongOneIsAnInvalidSensor() {
        assertThat(SensorStatus.of("active")).contains(SensorStatus.ACTIVE);
        assertThat(SensorStatus.of("paused")).contains(SensorStatus.PAUSED);
        assertThat(SensorStatus.PAUSED.wire()).isEqualTo("paused");
        assertThat(SensorStatus.of("ACTIVE")).isEmpty();
        assertThat(SensorStatus.of(null)).isEmpty();
        assertThatThrownBy(() -> SensorStatus.parse("running")).isInstanceOf(DomainException.class).satisfies(e -> {
            assertThat(((DomainException) e).code()).isEqualTo("invalid_sensor");
            assertThat(((DomainException) e).extras().get("field")).isEqualTo("status");
        });
    }

    @Test
    void aResultChangesTheShownStateOnlyWhenItIsNewestAndDifferent() {
        assertThat(SensorState.CRITICAL.changes(SensorState.OK, true)).isTrue();
        assertThat(SensorState.OK.changes(SensorState.INITIAL, true)).isTrue();
        assertThat(SensorState.OK.changes(SensorState.OK, true)).isFalse();
        // a run that finished after a later one: its state is recorded but not shown, so nothing changed
        assertThat(SensorState.CRITICAL.changes(SensorState.OK, false)).isFalse();
    }

    @Test
    void statesHaveTheirWireNamesAndABadStoredOneIsNotGuessed() {
        assertThat(SensorState.INITIAL).isEqualTo(SensorState.UNKNOWN);
        assertThat(String.join(", ", Arrays.stream(SensorState.values()).map(SensorState::wire).toList()))
                .isEqualTo(SensorState.NAMES);
        assertThat(SensorState.of("degraded")).contains(SensorState.DEGRADED);
        assertThat(SensorState.of("OK")).isEmpty();
        assertThat(SensorState.of("failing")).isEmpty();
        assertThatThrownBy(() -> SensorState.stored("green")).isInstanceOf(IllegalStateException.class);
    }
}
