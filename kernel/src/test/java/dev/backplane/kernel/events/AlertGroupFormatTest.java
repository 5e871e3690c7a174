package dev.backplane.kernel.events;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.backplane.kernel.util.JsonMapping;
import java.math.BigInteger;
import org.junit.jupiter.api.Test;

/** The group size and delivery-id rules of Alertmanager and Grafana group notifications. */
class AlertGroupFormatTest {

    private static JsonNode parse(String text) {
        return JsonMapping.tree(text, "the test's JSON");
    }

    private static ObjectNode lifted(AlertGroupFormat format, String body) {
        ObjectNode env = JsonMapping.mapper().createObjectNode();
        format.lift(parse(body), env);
        return env;
    }

    @Test
    void truncatedAlertsAddToTheGroupSizeOnlyWhenAPositiveWholeNumber() {
        var n = JsonMapping.mapper().getNodeFactory();
        assertThat(AlertGroupFormat.alertsCount(3, n.numberNode(4))).isEqualTo(7);
        assertThat(AlertGroupFormat.alertsCount(3, n.numberNode(-4))).isEqualTo(3);
        assertThat(AlertGroupFormat.alertsCount(3, n.numberNode(0))).isEqualTo(3);
        assertThat(AlertGroupFormat.alertsCount(3, n.numberNode(2.5))).isEqualTo(3);
        assertThat(AlertGroupFormat.alertsCount(3, n.textNode("4"))).isEqualTo(3);
        assertThat(AlertGroupFormat.alertsCount(3, n.numberNode(BigInteger.TWO.pow(70)))).as("beyond a long")
                .isEqualTo(3);
        assertThat(AlertGroupFormat.alertsCount(3, null)).isEqualTo(3);
    }

    @Test
    void aGroupSizeNearLongMaxIsCappedNotWrapped() {
        ObjectNode env = lifted(AlertGroupFormat.ALERTMANAGER, """
                {"status": "firing", "alerts": [{}, {}], "truncatedAlerts": 9223372036854775807}""");
        assertThat(env.get("alerts_count").longValue()).isEqualTo(Long.MAX_VALUE);
        assertThat(AlertGroupFormat.alertsCount(2, JsonMapping.mapper().getNodeFactory().numberNode(Long.MAX_VALUE - 2)))
                .isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void alertmanagerLiftsStatusAndGrafanaLiftsStateNeverBoth() {
        String body = """
                {"status": "Firing", "state": "alerting", "alerts": []}""";
        ObjectNode am = lifted(AlertGroupFormat.ALERTMANAGER, body);
        assertThat(am.get("status").textValue()).isEqualTo("firing");
        assertThat(am.has("state")).isFalse();
        ObjectNode grafana = lifted(AlertGroupFormat.GRAFANA, body);
        assertThat(grafana.get("state").textValue()).isEqualTo("alerting");
        assertThat(grafana.has("status")).isFalse();
        assertThat(AlertGroupFormat.GRAFANA.lift(parse(body), JsonMapping.mapper().createObjectNode())).isEqualTo("alert.firing");
        assertThat(AlertGroupFormat.ALERTMANAGER.lift(parse("{}"), JsonMapping.mapper().createObjectNode())).isNull();
    }

    @Test
    void grafanaStateMapping() {
        assertThat(AlertGroupFormat.grafanaState(null, "firing")).isEqualTo("alerting");
        assertThat(AlertGroupFormat.grafanaState(null, "resolved")).isEqualTo("ok");
        assertThat(AlertGroupFormat.grafanaState(null, "pending")).isNull();
        assertThat(AlertGroupFormat.grafanaState("no_data", "firing")).as("the body's state wins")
                .isEqualTo("no_data");
        assertThat(AlertGroupFormat.grafanaState(null, null)).isNull();
    }

    @Test
    void deliveryMaterialIgnoresTheGroupStatusCaseButNotTheAlertStatus() {
        String firing = """
                {"groupKey": "{}:{alertname=\\"X\\"}", "status": "firing",
                 "alerts": [{"fingerprint": "f1", "status": "firing", "startsAt": "2024-05-14T09:15:30Z"}]}""";
        String material = AlertGroupFormat.ALERTMANAGER.deliveryMaterial(parse(firing));
        assertThat(AlertGroupFormat.ALERTMANAGER.deliveryMaterial(parse(firing.replace("\"status\": \"firing\",\n",
                "\"status\": \" FIRING \",\n")))).isEqualTo(material);
        assertThat(AlertGroupFormat.ALERTMANAGER.deliveryMaterial(parse(firing.replace("\"status\": \"firing\", \"startsAt\"",
                "\"status\": \"resolved\", \"startsAt\"")))).isNotEqualTo(material);
        assertThat(AlertGroupFormat.GRAFANA.deliveryMaterial(parse(firing))).as("the same rule for both senders")
                .isEqualTo(material);
        assertThat(AlertGroupFormat.ALERTMANAGER.deliveryMaterial(parse("""
                {"groupKey": "  ", "alerts": []}"""))).as("a blank group key is none").isNull();
    }
}
