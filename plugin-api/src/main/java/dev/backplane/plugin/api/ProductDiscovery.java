package dev.backplane.plugin.api;

import static java.util.Objects.requireNonNull;

import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * How a spec engine finds further targets through an ingested connector ({@link Discovery}): one read
 * operation of the ingested catalog whose answer lists the product's members (the nodes of a Proxmox
 * VE cluster), each member's fields read by JSON pointer. Declared per connector in the catalog index,
 * never per vendor in code. Every candidate is of the connector's own product.
 *
 * @param operation the ingested operation to send, {@code GET <path template>} relative to the base path
 *     (as the catalog index names operations elsewhere); it takes no path parameters
 * @param items JSON pointer to the list of members in the answer; "" when the answer is the list
 * @param where JSON pointer (relative to a member) to a regular expression its text must contain a match
 *     of for the member to be listed ({@code /type} → {@code ^node$})
 * @param name pointer to the member's name, from which the target's name is made
 * @param host pointer to the address to dial
 * @param port pointer to the port, when the answer has one (else the target gets the product's default)
 * @param version pointer to the member's version, a hint the resolver uses until the first probe
 * @param seed pointers to regular expressions that, all matching, mark the member that is the seed
 *     target itself ({@code /local} → {@code ^1$}); empty when the answer does not say
 * @since 1.8
 */
public record ProductDiscovery(String operation, String items, Map<String, String> where, String name, String host,
                               Optional<String> port, Optional<String> version, Map<String, String> seed) {

    private static final Pattern OPERATION = Pattern.compile("GET /[^{}\\s]*");

    public ProductDiscovery {
        requireNonNull(operation, "operation is null");
        requireNonNull(items, "items is null");
        where = Map.copyOf(requireNonNull(where, "where is null"));
        requireNonNull(name, "name is null");
        requireNonNull(host, "host is null");
        requireNonNull(port, "port is null");
        requireNonNull(version, "version is null");
        seed = Map.copyOf(requireNonNull(seed, "seed is null"));
        if (!OPERATION.matcher(operation).matches()) {
            throw new IllegalArgumentException("discovery operation must be 'GET /path' without path parameters "
                    + "(discovery only reads): " + operation);
        }
        pointer(items, true);
        pointer(name, false);
        pointer(host, false);
        port.ifPresent(p -> pointer(p, false));
        version.ifPresent(v -> pointer(v, false));
        for (Map<String, String> rules : java.util.List.of(where, seed)) {
            rules.forEach((p, regex) -> {
                pointer(p, false);
                Pattern.compile(regex);
            });
        }
    }

    /** The HTTP method of {@link #operation} ({@code GET}). */
    public String method() {
        return operation.substring(0, operation.indexOf(' '));
    }

    /** The path template of {@link #operation}. */
    public String path() {
        return operation.substring(operation.indexOf(' ') + 1);
    }

    private static void pointer(String p, boolean emptyAllowed) {
        if (p.isEmpty() ? !emptyAllowed : !p.startsWith("/")) {
            throw new IllegalArgumentException("discovery field must be a JSON pointer ('/...'): '" + p + "'");
        }
    }
}
