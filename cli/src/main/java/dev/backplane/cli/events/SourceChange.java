package dev.backplane.cli.events;

import static dev.backplane.cli.events.EventSourceCommand.extras;
import static dev.backplane.cli.events.EventSourceCommand.secret;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.common.RequestBody;

/** The body of PATCH /api/v1/event-sources/{slug}: only what changes; a new secret rotates. */
@RequestBody
record SourceChange(String name, String authStrategy, JsonNode extras, String secret, Integer overlapSeconds) {
    boolean isEmpty() {
        return name == null && authStrategy == null && extras == null && secret == null;
    }
}
