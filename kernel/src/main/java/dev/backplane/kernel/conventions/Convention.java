package dev.backplane.kernel.conventions;

import java.time.Instant;
import java.util.UUID;

/**
 * A tenant's convention (SPEC "Other records"): the current state, at {@code version} (1 on create, one
 * more on every edit that changes something).
 */
public record Convention(UUID id, String slug, String title, String kind, int priority, String body, int version,
                         Instant createdAt, String createdBy, Instant updatedAt, String updatedBy) {

    public static final String OPERATIONAL = "operational";
    public static final String WORKFLOW = "workflow";
    public static final String REFERENCE = "reference";

    /** Whether the convention is searched (workflow, reference) rather than packed into agent instructions. */
    public boolean searchable() {
        return !kind.equals(OPERATIONAL);
    }
}
