package dev.backplane.cli.sensors;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.Http;
import dev.backplane.cli.common.RequestBody;
import dev.backplane.cli.common.TextArgs;
import java.io.IOException;

/** The body of sensor create and update, and the parsing of its JSON flags. */
final class SensorWrite {

    private SensorWrite() {
    }

    @RequestBody
    record Body(String name, String connectorId, String opId, String target, JsonNode params, JsonNode assertion,
                Integer intervalSeconds, String cron, String timeZone, String status) {
    }

    /** A JSON object flag given inline or as {@code @file}; null when the flag is absent. */
    static JsonNode object(String value, String flag) {
        if (value == null) {
            return null;
        }
        JsonNode n;
        try {
            n = Http.JSON.readTree(TextArgs.read(value, flag));
        } catch (IOException e) {
            throw CliException.usage(flag + " is not JSON: " + e.getMessage());
        }
        if (n == null || !n.isObject()) {
            throw CliException.usage(flag + " must be a JSON object");
        }
        return n;
    }
}
