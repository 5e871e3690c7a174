package dev.backplane.plugin.api;

import static java.util.Objects.requireNonNull;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The groups and operations a connector publishes. Validated on construction: op ids unique, every
 * operation in a declared group.
 *
 * @param groups the groups
 * @param operations the operations
 */
public record Catalog(List<OperationGroup> groups, List<OperationDescriptor> operations) {

    public Catalog {
        groups = List.copyOf(requireNonNull(groups, "groups is null"));
        operations = List.copyOf(requireNonNull(operations, "operations is null"));
        Set<String> keys = new HashSet<>();
        for (OperationGroup g : groups) {
            if (!keys.add(g.groupKey())) {
                throw new IllegalArgumentException("duplicate group key " + g.groupKey());
            }
        }
        Set<String> ids = new HashSet<>();
        for (OperationDescriptor op : operations) {
            if (!ids.add(op.opId())) {
                throw new IllegalArgumentException("duplicate op id " + op.opId());
            }
            if (!keys.contains(op.groupKey())) {
                throw new IllegalArgumentException("op " + op.opId() + " is in undeclared group " + op.groupKey());
            }
        }
    }
}
