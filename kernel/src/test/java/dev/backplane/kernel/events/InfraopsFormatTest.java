package dev.backplane.kernel.events;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.util.JsonMapping;
import org.junit.jupiter.api.Test;

/** Aria Operations criticality forms and the fields its delivery id reads. */
class InfraopsFormatTest {

    private static JsonNode parse(String text) {
        return JsonMapping.tree(text, "the test's JSON");
    }

    @Test
    void criticalityIsOneOfFourShortNames() {
        assertThat(InfraopsFormat.criticality(" Critical ")).isEqualTo("critical");
        assertThat(InfraopsFormat.criticality("ALERT_CRITICALITY_LEVEL_WARNING")).isEqualTo("warning");
        assertThat(InfraopsFormat.criticality("ALERT_CRITICALITY_LEVEL_")).isNull();
        assertThat(InfraopsFormat.criticality("alert_criticality_level_alert_criticality_level_info")).isNull();
        assertThat(InfraopsFormat.criticality("ALERT_CRITICALITY_LEVEL_UNKNOWN")).isNull();
        assertThat(InfraopsFormat.criticality("level_critical")).isNull();
        assertThat(InfraopsFormat.criticality(null)).isNull();
    }

    @Test
    void deliveryMaterialReadsDatesAsScalarsAndStatusLowerCased() {
        InfraopsFormat f = InfraopsFormat.INSTANCE;
        String material = f.deliveryMaterial(parse("""
                {"alertId": "a1", "status": "ACTIVE", "updateDate": 17}"""));
        assertThat(material).isEqualTo("a1\nactive\n17\n");
        assertThat(f.deliveryMaterial(parse("""
                {"alertId": "a1", "status": " active", "updateDate": "17", "cancelDate": null}"""))).isEqualTo(material);
        assertThat(f.deliveryMaterial(parse("""
                {"alertId": "a1", "status": "ACTIVE", "updateDate": 17, "cancelDate": {"at": 1}}""")))
                .as("an object date reads as absent").isEqualTo(material);
        assertThat(f.deliveryMaterial(parse("""
                {"alertId": 7, "status": "ACTIVE"}"""))).as("a numeric alert id is none").isNull();
    }
}
