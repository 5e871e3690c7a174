package dev.backplane.kernel.dashboards;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * A dashboard as shown: its fields, its member sensors with their latest states, and the roll-up
 * computed from them as it is read (worst member state, skip ignored, empty set unknown).
 */
public record Dashboard(UUID id, String name, Optional<String> description, Optional<String> investigatorPrompt,
                        Optional<String> investigatorAgent, Optional<String> notifyEmail, String notifyMinState,
                        List<UUID> sensorIds, List<Member> members, String rollupState,
                        Optional<Instant> lastNotifiedAt, String createdBy, Instant createdAt) {

    /** A member sensor and its latest state ({@code unknown} before its first run). */
    public record Member(UUID id, String name, String state) {
    }
}
