package dev.backplane.plugins.http;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Typed access to params the kernel has already validated against the operation's schema. */
public record Params(Map<String, Object> values) {

    public Optional<String> string(String name) {
        Object v = values.get(name);
        return v == null ? Optional.empty() : Optional.of(v.toString()).filter(s -> !s.isEmpty());
    }

    public Optional<Integer> integer(String name) {
        return values.get(name) instanceof Number n ? Optional.of(n.intValue()) : Optional.empty();
    }

    public Optional<Boolean> bool(String name) {
        return values.get(name) instanceof Boolean b ? Optional.of(b) : Optional.empty();
    }

    /** A list of strings, empty lists as absent. */
    public Optional<List<String>> strings(String name) {
        if (!(values.get(name) instanceof List<?> list) || list.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(list.stream().map(String::valueOf).toList());
    }
}
