package dev.backplane.cli.sensors;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.common.RequestBody;

/** The body of sensor create and update, and the parsing of its JSON flags. */
final class SensorWrite {

    private SensorWrite() {
    }

    @RequestBody
    record Body(String name, String connectorId, String opId, String target, JsonNode params, JsonNode assertion,
                Integer intervalSeconds, String cron, String timeZone, String status) {
    }
}
