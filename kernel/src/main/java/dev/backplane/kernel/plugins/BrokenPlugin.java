package dev.backplane.kernel.plugins;

import java.util.Optional;

/**
 * A plugin jar that could not be loaded, with the reason; shown by {@code svc connector list}.
 *
 * @param file the jar's file name
 * @param pluginId the id its manifest claims, if it could be read
 * @param reason what went wrong
 */
public record BrokenPlugin(String file, Optional<String> pluginId, String reason) {
}
