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
     * {@code port}, {@code version}, {@code notes}, {@code extras}, ...). Nothing is registered; the
     * operator decides. The kernel turns the list into an importable plan: it makes each name a DNS-1123
     * label, drops duplicates and members already registered, and checks every candidate as an import
     * would (since 1.8), so a connector reports what it saw without second-guessing the registry.
     *
     * <p>Two keys beyond the target fields (since 1.8): a candidate without {@code product} is a member the
     * connector saw but cannot say which product serves (it is listed, never importable as it is), and
     * {@code "seed": true} marks the member that is the seed target itself, when the connector can tell
     * (the kernel also recognises the seed by its product, host and port).
     *
     * @param product the product asked for, which is the seed target's
     * @throws ConnectorException when the target cannot be reached, refuses the credential or answers an error
     */
    List<Map<String, Object>> discover(String product);
}
