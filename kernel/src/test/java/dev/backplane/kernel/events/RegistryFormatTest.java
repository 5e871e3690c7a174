package dev.backplane.kernel.events;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.util.JsonMapping;
import org.junit.jupiter.api.Test;

/** Harbor type mapping and the occurrence time each Harbor format's delivery id needs. */
class RegistryFormatTest {

    private static JsonNode parse(String text) {
        return JsonMapping.tree(text, "the test's JSON");
    }

    @Test
    void cloudEventsTypesMapWhateverTheirCaseAndBlanks() {
        assertThat(RegistryFormat.type(parse("""
                {"specversion": "1.0", "type": " Harbor.Scan.Completed "}"""))).isEqualTo("SCANNING_COMPLETED");
        assertThat(RegistryFormat.type(parse("""
                {"specversion": "1.0", "type": "harbor.tag_retention.finished"}"""))).isEqualTo("TAG_RETENTION");
        assertThat(RegistryFormat.type(parse("""
                {"type": " PUSH_ARTIFACT "}"""))).as("default format: verbatim").isEqualTo(" PUSH_ARTIFACT ");
        assertThat(RegistryFormat.type(parse("""
                {"specversion": "1.0", "type": "   "}"""))).isNull();
    }

    @Test
    void eachFormatTakesItsOwnOccurrenceTimeAndData() {
        RegistryFormat f = RegistryFormat.INSTANCE;
        // a CloudEvents body dates itself by "time"; "occur_at" there does not count, and the other way round
        assertThat(f.deliveryMaterial(parse("""
                {"specversion": "1.0", "type": "harbor.artifact.pushed", "occur_at": 1715677267}"""))).isNull();
        assertThat(f.deliveryMaterial(parse("""
                {"type": "PUSH_ARTIFACT", "time": "2024-05-14T09:23:10Z"}"""))).isNull();
        assertThat(f.deliveryMaterial(parse("""
                {"type": "PUSH_ARTIFACT", "occur_at": " "}"""))).as("blank time").isNull();
        assertThat(f.deliveryMaterial(parse("""
                {"type": "PUSH_ARTIFACT", "occur_at": [1]}"""))).as("not a scalar").isNull();

        String cloud = """
                {"specversion": "1.0", "type": "harbor.artifact.pushed", "time": "t1", "data": {"b": 1, "a": 2},
                 "event_data": {"x": 1}}""";
        assertThat(f.deliveryMaterial(parse(cloud))).isEqualTo("PUSH_ARTIFACT\nt1\n\n{\"a\":2,\"b\":1}");
        assertThat(f.deliveryMaterial(parse("""
                {"type": "PUSH_ARTIFACT", "occur_at": 17, "operator": "admin", "event_data": {"x": 1},
                 "data": {"y": 2}}"""))).isEqualTo("PUSH_ARTIFACT\n17\nadmin\n{\"x\":1}");
    }
}
