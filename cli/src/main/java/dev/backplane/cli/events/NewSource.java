package dev.backplane.cli.events;

import static dev.backplane.cli.events.EventSourceCommand.extras;
import static dev.backplane.cli.events.EventSourceCommand.secret;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.common.RequestBody;

/** The body of POST /api/v1/event-sources; a generated slug when none is given. */
@RequestBody
record NewSource(String slug, String name, String kind, String authStrategy, String secret, JsonNode extras) {
}
