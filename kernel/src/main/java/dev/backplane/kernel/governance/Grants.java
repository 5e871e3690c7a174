package dev.backplane.kernel.governance;

import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.util.Glob;
import dev.backplane.kernel.util.Times;
import dev.backplane.plugin.api.SafetyLevel;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * Grants bounding agents and user-agents: an fnmatch op pattern, a target (uuid or {@code *}), a
 * verdict (auto-execute, needs-approval, deny) and an optional expiry (required for elevations).
 * The most specific matching grant wins — an exact target beats {@code *}, then the pattern with
 * more literal characters — and {@code deny} beats the others at equal specificity. With no grant an
 * agent falls back on the operation's safety level.
 */
public final class Grants {

    public static final Set<String> VERDICTS = Set.of(Verdict.AUTO_EXECUTE.wireName(), Verdict.NEEDS_APPROVAL.wireName(),
            Verdict.DENY.wireName());
    public static final Set<String> KINDS = Set.of("agent", "user-agent");

    /** The longest principal (a token's sub or a service account name) a grant may name. */
    public static final int MAX_PRINCIPAL = 255;

    /** A grant as shown. */
    public record Grant(UUID id, String principal, String principalKind, String op, String target, String verdict,
                        Optional<Instant> expires, boolean elevation, boolean revoked, String createdBy,
                        Instant createdAt) {
        boolean activeAt(Instant now) {
            return !revoked && expires.map(now::isBefore).orElse(true);
        }
    }

    /** What a grant (or the safety-level fallback) says of a call. */
    public enum Verdict {
        AUTO_EXECUTE, NEEDS_APPROVAL, DENY;

        public String wireName() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }

        static Verdict parse(String wire) {
            for (Verdict v : values()) {
                if (v.wireName().equals(wire)) {
                    return v;
                }
            }
            throw new IllegalArgumentException("unknown verdict " + wire);
        }
    }

    /** The gate's verdict for one call, and why. */
    public record Decision(Verdict verdict, String reason, Optional<UUID> grantId) {
    }

    private final GrantStore store;

    public Grants(Jdbc jdbc) {
        this.store = new GrantStore(jdbc);
    }

    public Grant create(UUID tenant, String createdBy, String principal, Optional<String> kind, String op,
                        Optional<String> target, String verdict, Optional<String> expires, boolean elevation) {
        check(principal != null && !principal.isBlank(), "principal is required", "principal");
        check(principal.length() <= MAX_PRINCIPAL, "principal is longer than " + MAX_PRINCIPAL + " characters",
                "principal");
        check(op != null && !op.isBlank() && op.length() <= 256, "op (an fnmatch pattern) is required", "op");
        check(VERDICTS.contains(verdict), "verdict must be one of " + VERDICTS, "verdict");
        String k = kind.orElse("agent");
        check(KINDS.contains(k), "principal_kind must be agent or user-agent", "principal_kind");
        String t = target.orElse("*");
        if (!t.equals("*")) {
            try {
                t = UUID.fromString(t).toString();
            } catch (IllegalArgumentException e) {
                throw GovernanceErrors.INVALID_GRANT.error("target must be a target uuid or '*'", Map.of("field", "target"));
            }
        }
        Optional<Instant> exp = expires.map(Grants::instant);
        check(!elevation || exp.isPresent(), "an elevation needs expires", "expires");
        exp.ifPresent(e -> check(e.isAfter(Instant.now()), "expires must be in the future", "expires"));
        UUID id = UUID.randomUUID();
        store.insertGrant(id, tenant, principal, k, op, t, verdict, exp, elevation, createdBy);
        return show(tenant, id);
    }

    public List<Grant> list(UUID tenant, Optional<String> principal, boolean includeExpired, boolean includeRevoked,
                            int limit, int offset) {
        check(limit >= 1 && limit <= 500 && offset >= 0, "limit must be 1..500 and offset >= 0", "limit");
        return store.listGrants(tenant, principal, includeExpired, includeRevoked, limit, offset);
    }

    public Grant show(UUID tenant, UUID id) {
        return store.findGrant(tenant, id).orElseThrow(() ->
                CommonErrors.GRANT_NOT_FOUND.error("no grant " + id + " in this tenant"));
    }

    /** What a grant id that is not a uuid answers. */
    static DomainException notFound(String id) {
        return CommonErrors.GRANT_NOT_FOUND.error("no grant " + id);
    }

    /** Revokes the grant (the row stays, marked revoked) and answers it again. */
    public Grant revoke(UUID tenant, UUID id) {
        show(tenant, id);
        store.revokeGrant(id);
        return show(tenant, id);
    }

    /**
     * The gate's verdict for an agent or user-agent calling {@code opId} on {@code targetId}: the grants of
     * every one of {@code principals} (the caller's {@link Caller#grantSubjects()})
     * compete as one set, so a grant on an agent principal's {@code svc-agent:<name>} binds its token calls and
     * its runs alike.
     */
    public Decision decide(UUID tenant, List<String> principals, String kind, String opId, UUID targetId,
                           SafetyLevel safety) {
        Instant now = Instant.now();
        List<Grant> candidates = store.unrevokedGrants(tenant, principals, kind);
        Optional<Grant> best = pick(candidates.stream().filter(g -> g.activeAt(now))
                .filter(g -> g.target().equals("*") || g.target().equals(targetId.toString()))
                .filter(g -> matches(g.op(), opId)).toList());
        if (best.isPresent()) {
            return new Decision(Verdict.parse(best.get().verdict()), "grant " + best.get().id() + " (" + best.get().op() + " on "
                    + best.get().target() + ")", Optional.of(best.get().id()));
        }
        Verdict fallback = switch (safety) {
            case SAFE -> Verdict.AUTO_EXECUTE;
            case CAUTION -> Verdict.NEEDS_APPROVAL;
            case DANGEROUS -> Verdict.DENY;
        };
        return new Decision(fallback, "no grant matches; a " + safety.wireName() + " operation falls back to "
                + fallback.wireName(), Optional.empty());
    }

    static Optional<Grant> pick(List<Grant> matching) {
        return matching.stream().max(Comparator.comparingInt(Grants::specificity)
                .thenComparingInt(g -> g.verdict().equals("deny") ? 2 : g.verdict().equals("needs-approval") ? 1 : 0));
    }

    static int specificity(Grant g) {
        int literal = Glob.literalLength(g.op());
        return (g.target().equals("*") ? 0 : 10_000) + literal;
    }

    /** fnmatch: {@code *} any run, {@code ?} one character, {@code [...]} a class; everything else literal. */
    static boolean matches(String pattern, String text) {
        return Glob.matches(pattern, text);
    }

    private static Instant instant(String text) {
        return Times.inRange(parse(text), "expires", "invalid_grant");
    }

    private static Instant parse(String text) {
        return Times.iso(text).orElseThrow(() -> GovernanceErrors.INVALID_GRANT.error(
                "expires must be an ISO 8601 UTC time, got '" + text + "'", Map.of("field", "expires")));
    }

    /** Refuses a grant (of either kind) with {@code invalid_grant} naming the field. */
    static void check(boolean ok, String message, String field) {
        if (!ok) {
            throw GovernanceErrors.INVALID_GRANT.error(message, Map.of("field", field));
        }
    }
}
