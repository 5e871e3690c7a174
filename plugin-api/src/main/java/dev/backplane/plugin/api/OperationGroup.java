package dev.backplane.plugin.api;

import static java.util.Objects.requireNonNull;

/**
 * A group of related operations, shown to agents and operators to narrow a search.
 *
 * @param groupKey stable key ({@code pods})
 * @param displayName human name
 * @param whenToUse a hint for agents: when this group is the right place to look
 */
public record OperationGroup(String groupKey, String displayName, String whenToUse) {
    public OperationGroup {
        requireNonNull(groupKey, "groupKey is null");
        requireNonNull(displayName, "displayName is null");
        requireNonNull(whenToUse, "whenToUse is null");
        if (!groupKey.matches("[a-z0-9][a-z0-9_.-]*")) {
            throw new IllegalArgumentException("group key must be lower-case letters, digits, '_', '.', '-': " + groupKey);
        }
    }
}
