package dev.backplane.kernel.tenancy;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A tenant's flight-recorder policy.
 *
 * @param enabled whether agent sessions are recorded
 * @param agentReadable {@code true}, {@code false} or {@code inherit}
 * @param retentionDays 1..365, or empty for the deploy default
 * @param updatedAt when it last changed (empty while at defaults)
 * @param updatedBy who changed it last
 */
public record FlightRecorderPolicy(boolean enabled, String agentReadable, Optional<Integer> retentionDays,
                                   Optional<Instant> updatedAt, Optional<String> updatedBy) {

    public static final List<String> AGENT_READABLE_VALUES = List.of("true", "false", "inherit");
    public static final FlightRecorderPolicy DEFAULT =
            new FlightRecorderPolicy(false, "inherit", Optional.empty(), Optional.empty(), Optional.empty());

    /**
     * A sparse change: absent fields stay as they are.
     *
     * @param enabled new enabled flag
     * @param agentReadable new agent_readable value
     * @param retentionDays new retention (1..365)
     * @param clearRetention drop the retention back to the deploy default
     */
    public record Change(Optional<Boolean> enabled, Optional<String> agentReadable, Optional<Integer> retentionDays,
                         Optional<Boolean> clearRetention) {

        public Change {
            enabled = enabled == null ? Optional.empty() : enabled;
            agentReadable = agentReadable == null ? Optional.empty() : agentReadable;
            retentionDays = retentionDays == null ? Optional.empty() : retentionDays;
            clearRetention = clearRetention == null ? Optional.empty() : clearRetention;
        }

        /** Throws {@code 422 invalid_policy} naming the offending field. */
        public void validate() {
            agentReadable.ifPresent(v -> {
                if (!AGENT_READABLE_VALUES.contains(v)) {
                    throw TenancyErrors.INVALID_POLICY.error("agent_readable must be one of "
                            + AGENT_READABLE_VALUES + ", got '" + v + "'", Map.of("field", "agent_readable"));
                }
            });
            retentionDays.ifPresent(d -> {
                if (d < 1 || d > 365) {
                    throw TenancyErrors.INVALID_POLICY.error("retention_days must be 1..365, got " + d,
                            Map.of("field", "retention_days"));
                }
            });
            if (retentionDays.isPresent() && clearRetention.orElse(false)) {
                throw TenancyErrors.INVALID_POLICY.error("retention_days and clear_retention are mutually exclusive", Map.of("field", "clear_retention"));
            }
            if (enabled.isEmpty() && agentReadable.isEmpty() && retentionDays.isEmpty()
                    && !clearRetention.orElse(false)) {
                throw TenancyErrors.INVALID_POLICY.error("nothing to change: give enabled, agent_readable, "
                        + "retention_days or clear_retention", Map.of());
            }
        }
    }
}
