package dev.backplane.kernel.broadcast;

import dev.backplane.kernel.errors.DomainException;
import dev.backplane.plugin.api.OpClass;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The rules of an announcement ({@code svc broadcast announce}): which fields it needs and within which
 * bounds, and which claim it belongs to. A claim is keyed by its author and its run id (or work ref, or
 * activity text).
 */
final class Announcements {

    static final int MAX_TARGETS = 50;
    static final int DEFAULT_TTL_MINUTES = 60;

    /** A checked announcement, ready to store; {@code targets} holds {@code target} first, without repeats. */
    record Claim(String activity, AnnouncementPhase phase, Optional<OpClass> plannedOpClass, Optional<String> runId,
                 Optional<String> workRef, Optional<String> scope, List<String> targets, int ttlMinutes,
                 String claimKey) {

        /** The single target, when the announcement names exactly one. */
        Optional<String> soleTarget() {
            return targets.size() == 1 ? Optional.of(targets.getFirst()) : Optional.empty();
        }
    }

    private Announcements() {
    }

    /** Checks {@code a}, announced by {@code sub}; a field out of bounds is {@code invalid_announcement}. */
    static Claim check(String sub, BroadcastFeed.Announcement a) {
        String activity = required(a.activity(), "activity", 500);
        String phaseText = a.phase() == null ? AnnouncementPhase.START.wireName() : a.phase();
        AnnouncementPhase phase = AnnouncementPhase.parse(phaseText).orElseThrow(() -> invalid(
                "phase must be start, update or completion, got '" + phaseText + "'", "phase"));
        Optional<String> plannedText = Optional.ofNullable(a.plannedOpClass()).map(v -> v.toLowerCase(Locale.ROOT));
        Optional<OpClass> planned = plannedText.map(v -> OpClass.fromWireName(v).orElseThrow(() -> invalid(
                "planned_op_class must be one of " + OpClass.wireNames() + ", got '" + a.plannedOpClass() + "'",
                "planned_op_class")));
        int ttl = a.ttlMinutes() == null ? DEFAULT_TTL_MINUTES : a.ttlMinutes();
        if (ttl < 1 || ttl > 1440) {
            throw invalid("ttl_minutes must be 1..1440, got " + ttl, "ttl_minutes");
        }
        Optional<String> runId = optional(a.runId(), "run_id", 128);
        Optional<String> workRef = optional(a.workRef(), "work_ref", 256);
        Optional<String> scope = optional(a.scope(), "scope", 500);
        Optional<String> target = optional(a.target(), "target", 253);
        List<String> targets = new ArrayList<>();
        target.ifPresent(targets::add);
        if (a.targets() != null) {
            for (String t : a.targets()) {
                optional(t, "targets", 253).filter(v -> !targets.contains(v)).ifPresent(targets::add);
            }
        }
        if (targets.size() > MAX_TARGETS) {
            throw invalid("an announcement names at most " + MAX_TARGETS + " targets", "targets");
        }
        String claimKey = sub + "\u001f" + runId.or(() -> workRef).orElse(activity);
        return new Claim(activity, phase, planned, runId, workRef, scope, List.copyOf(targets), ttl, claimKey);
    }

    private static String required(String value, String field, int max) {
        if (value == null || value.isBlank()) {
            throw invalid(field + " is required", field);
        }
        return optional(value, field, max).orElseThrow();
    }

    private static Optional<String> optional(String value, String field, int max) {
        if (value == null || value.isEmpty()) {
            return Optional.empty();
        }
        if (value.length() > max || value.chars().anyMatch(ch -> ch < 0x20 || ch == 0x7f)) {
            throw invalid(field + " must be 1.." + max + " characters without control characters", field);
        }
        return Optional.of(value);
    }

    private static DomainException invalid(String message, String field) {
        return BroadcastErrors.INVALID_ANNOUNCEMENT.error(message, Map.of("field", field));
    }
}
