package dev.backplane.cli.common;

import com.fasterxml.jackson.databind.JsonNode;

/** How a verb shows the server's answer to a person (without {@code --json}). */
@FunctionalInterface
public interface Render {

    void print(CliContext ctx, JsonNode answer);
}
