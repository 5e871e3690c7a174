package dev.backplane.plugin.api;

import java.util.List;
import java.util.Map;

/**
 * An optional capability of a {@link Connector}: from a session with a seed target, find further
 * targets of a product (for example the members of a cluster). Connectors without it answer
 * {@code svc targets discover} with "not supported by this connector".
 */
public interface Discovery {

    /**
     * Candidate targets, each a map of target fields ({@code name}, {@code product}, {@code host},
     * {@code port}, ...). Nothing is registered; the operator decides.
     */
    List<Map<String, Object>> discover(String product);
}
