package dev.backplane.kernel.tenancy;

import dev.backplane.kernel.errors.CommonErrors;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * A tenant as {@code GET /api/v1/tenants/current} shows it: its id and the display name its tenant_admin gave it
 * (people read the name; the id is what tokens and the API carry), with who set the name and when.
 */
public record TenantView(UUID id, Optional<String> displayName, Optional<Instant> displayNameUpdatedAt,
                         Optional<String> displayNameUpdatedBy) {

    /** The longest display name. */
    public static final int MAX_NAME = 100;

    /** {@code name} trimmed, if it is a display name; else {@code invalid_request} naming {@code display_name}. */
    static String checkedName(String name) {
        String trimmed = name == null ? "" : name.strip();
        if (trimmed.isEmpty() || trimmed.length() > MAX_NAME || trimmed.chars().anyMatch(Character::isISOControl)) {
            throw CommonErrors.INVALID_REQUEST.error("display_name must be 1 to " + MAX_NAME + " characters without "
                    + "control characters", Map.of("field", "display_name"));
        }
        return trimmed;
    }
}
