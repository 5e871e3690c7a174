package dev.backplane.kernel.governance;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The life of an approval request: parked {@code pending}, then decided once — {@code approved}, {@code rejected}
 * (withdrawn and killed requests included) or {@code expired} past its TTL. The allowed moves live here.
 */
public enum ApprovalStatus {
    PENDING, APPROVED, REJECTED, EXPIRED;

    /** The status as the API and the {@code governance_approvals.status} column spell it. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Only a pending request moves, and only to a decision: every other status is final. */
    public boolean canMoveTo(ApprovalStatus next) {
        return this == PENDING && next != PENDING;
    }

    /** The status a wire name names, if any. */
    public static Optional<ApprovalStatus> parse(String wire) {
        return Arrays.stream(values()).filter(s -> s.wireName().equals(wire)).findFirst();
    }

    /** Every wire name, in the order of the life above. */
    public static Set<String> wireNames() {
        Set<String> names = new LinkedHashSet<>();
        for (ApprovalStatus s : values()) {
            names.add(s.wireName());
        }
        return names;
    }
}
