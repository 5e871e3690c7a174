package dev.backplane.ingest;

import static java.util.Objects.requireNonNull;

import dev.backplane.plugin.api.Catalog;
import dev.backplane.plugin.api.OperationDescriptor;
import dev.backplane.plugin.api.OperationGroup;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Collects groups and operations across specs, deriving group keys from tags (or the first literal path
 * segment) and keeping op ids unique: a repeated id gets {@code _2}, {@code _3}, ... in the order met.
 */
final class CatalogBuilder {

    private static final int WHEN_TO_USE_CHARS = 300;

    private final String implId;
    private final Map<String, OperationGroup> groups = new LinkedHashMap<>();
    private final List<OperationDescriptor> operations = new ArrayList<>();
    private final Set<String> opIds = new HashSet<>();
    private final Map<String, String> reasons = new LinkedHashMap<>();

    CatalogBuilder(String implId) {
        this.implId = requireNonNull(implId, "implId is null");
    }

    /**
     * The group of an operation, declared on first use (later declarations of the same key keep the first
     * one's name and hint).
     *
     * @param firstTag the operation's first tag, or null
     * @param tagDescription the top-level description of that tag, or null
     * @param path the operation's path as written in its spec
     */
    String group(String firstTag, String tagDescription, String path) {
        String key = firstTag == null ? "" : OperationNames.slug(firstTag);
        if (!key.isEmpty()) {
            String hint = tagDescription == null || tagDescription.isBlank()
                    ? "Operations tagged '" + Texts.collapse(firstTag) + "'"
                    : Texts.bounded(tagDescription, WHEN_TO_USE_CHARS);
            groups.putIfAbsent(key, new OperationGroup(key, Texts.collapse(firstTag), hint));
            return key;
        }
        String segment = OperationNames.firstLiteralSegment(path);
        key = segment == null ? "" : OperationNames.slug(segment);
        if (key.isEmpty()) {
            groups.putIfAbsent("root", new OperationGroup("root", "root", "Operations at the root of the API"));
            return "root";
        }
        groups.putIfAbsent(key, new OperationGroup(key, segment, "Operations under /" + segment));
        return key;
    }

    /** {@code <implId>.<groupKey>.<name>}, suffixed when already taken (the warning says so). */
    String opId(String groupKey, String name, java.util.function.Consumer<String> warnings) {
        String base = implId + "." + groupKey + "." + name;
        String id = base;
        for (int n = 2; opIds.contains(id); n++) {
            id = base + "_" + n;
        }
        if (!id.equals(base)) {
            warnings.accept("op id " + base + " is taken by an earlier operation; this one is " + id);
        }
        opIds.add(id);
        return id;
    }

    /** Why the operation {@code opId} got its class and safety ({@link Classification#reason()}). */
    void classified(String opId, String reason) {
        reasons.put(opId, reason);
    }

    /** Op id → why it got its class and safety, for every operation added. */
    Map<String, String> reasons() {
        return Map.copyOf(reasons);
    }

    void add(OperationDescriptor operation) {
        operations.add(operation);
    }

    int size() {
        return operations.size();
    }

    Catalog build() {
        return new Catalog(List.copyOf(groups.values()), operations);
    }
}
