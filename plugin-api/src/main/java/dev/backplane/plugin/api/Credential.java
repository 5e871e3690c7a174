package dev.backplane.plugin.api;

import static java.util.Objects.requireNonNull;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The secret fields resolved for one call. Values are never shown: {@link #toString()} names the
 * fields only. Asking for a missing field raises {@code KvCredentialsReadError (missing required field)}.
 */
public final class Credential {

    private final Map<String, String> fields;

    public Credential(Map<String, String> fields) {
        this.fields = Map.copyOf(requireNonNull(fields, "fields is null"));
    }

    /**
     * The value of {@code name}.
     *
     * @throws ConnectorException {@code connector_error} with {@code KvCredentialsReadError (missing required field)}
     */
    public String field(String name) {
        String value = fields.get(name);
        if (value == null) {
            throw new ConnectorException(ErrorCode.CONNECTOR_ERROR,
                    "KvCredentialsReadError (missing required field '" + name + "')");
        }
        return value;
    }

    public boolean has(String name) {
        return fields.containsKey(name);
    }

    /** The field names (never the values). */
    public Set<String> names() {
        return new TreeSet<>(fields.keySet());
    }

    @Override
    public String toString() {
        return "Credential" + names() + "(values redacted)";
    }
}
