package dev.backplane.kernel.broadcast;

import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.persistence.ChangeFeed;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.persistence.SharedCache;
import dev.backplane.kernel.util.Glob;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * Per-tenant rules for how much of the dispatch activity the feed shows: an override matches calls by
 * an op id glob, optionally only in one namespace or on one target, and says {@code full} (every call
 * an event) or {@code aggregate} (matching calls collapsed into one count per window). When several
 * match, a scoped rule beats an op-wide one, then the pattern with more literal characters wins.
 */
public final class BroadcastOverrides {

    /** One rule. {@code scopeField} is empty for an op-wide rule. */
    public record Override(UUID id, String opIdPattern, String detail, String scopeField, String scopeValue,
                           String createdBy, Instant createdAt) {

        boolean aggregate() {
            return OverrideDetail.parse(detail).orElse(OverrideDetail.FULL) == OverrideDetail.AGGREGATE;
        }

        /** What the rule is scoped on; a stored value this kernel does not know counts as op-wide. */
        ScopeField scope() {
            return ScopeField.parse(scopeField).orElse(ScopeField.NONE);
        }

        boolean matches(Activity a) {
            if (a.opId().isEmpty() || !Glob.matches(opIdPattern, a.opId().get())) {
                return false;
            }
            return scope() == ScopeField.NONE || scope().valueIn(a).map(scopeValue::equals).orElse(false);
        }

        int specificity() {
            return (scopeField.isEmpty() ? 0 : 10_000) + Glob.literalLength(opIdPattern);
        }

        /** The scope value an aggregate window of this rule is keyed on ({@code ""} for an op-wide rule). */
        String scopeOf(Activity a) {
            return scope().valueIn(a).orElse("");
        }
    }

    /** A request to set a rule ({@code svc broadcast overrides set}). */
    public record Change(String opIdPattern, String detail, String scopeField, String scopeValue) {
    }

    static final int MAX_PATTERN = 256;
    static final int MAX_PER_TENANT = 200;
    /** Characters a regular expression would need and a glob never has: refused so nobody writes a regex by mistake. */
    private static final Pattern REGEX_CHARACTERS = Pattern.compile("[\\^$+(){}|\\\\]");
    private static final Pattern ALLOWED = Pattern.compile("[A-Za-z0-9_.:/*?\\[\\]!-]+");

    private final OverrideStore store;
    private final SharedCache<List<Override>> cache;

    public BroadcastOverrides(Jdbc jdbc, ChangeFeed feed) {
        this.store = new OverrideStore(jdbc);
        this.cache = new SharedCache<>(feed, "broadcast-overrides", 10_000);
    }

    public List<Override> list(UUID tenant, Optional<String> opIdPattern) {
        return all(tenant).stream().filter(o -> opIdPattern.map(o.opIdPattern()::equals).orElse(true)).toList();
    }

    /** Creates the rule, or changes the detail of the rule with the same pattern and scope. */
    public Override set(UUID tenant, String actor, Change change) {
        String pattern = checkedPattern(change.opIdPattern());
        String detail = change.detail();
        if (detail == null || OverrideDetail.parse(detail).isEmpty()) {
            throw BroadcastErrors.INVALID_OVERRIDE.error("detail must be full or aggregate, got "
                    + (detail == null ? "nothing" : "'" + detail + "'"), Map.of("field", "detail"));
        }
        String field = change.scopeField() == null ? "" : change.scopeField();
        String value = change.scopeValue() == null ? "" : change.scopeValue();
        ScopeField scope = ScopeField.parse(field).orElseThrow(() -> BroadcastErrors.INVALID_OVERRIDE.error(
                "scope_field must be namespace or target_name (or empty for an op-wide rule), got '" + field + "'",
                Map.of("field", "scope_field")));
        if (scope != ScopeField.NONE && (value.isBlank() || value.length() > 253)) {
            throw BroadcastErrors.INVALID_OVERRIDE.error("scope_value (1..253 characters) is required when scope_field "
                    + "is set", Map.of("field", "scope_value"));
        }
        if (scope == ScopeField.NONE && !value.isEmpty()) {
            throw BroadcastErrors.INVALID_OVERRIDE.error("scope_value needs a scope_field (namespace or target_name)",
                    Map.of("field", "scope_value"));
        }
        Override saved = store.inTransaction(c -> {
            OverrideStore.lockTenant(c, tenant);
            boolean exists = OverrideStore.exists(c, tenant, pattern, field, value);
            int count = OverrideStore.count(c, tenant);
            if (!exists && count >= MAX_PER_TENANT) {
                throw BroadcastErrors.INVALID_OVERRIDE.error("a tenant has at most " + MAX_PER_TENANT + " broadcast "
                        + "overrides; remove one first", Map.of());
            }
            return OverrideStore.upsert(c, tenant, actor, pattern, detail, field, value);
        });
        cache.changed(tenant.toString());
        return saved;
    }

    public Override remove(UUID tenant, UUID id) {
        Override gone = store.delete(tenant, id).orElseThrow(() -> notFound(id.toString()));
        cache.changed(tenant.toString());
        return gone;
    }

    static DomainException notFound(String id) {
        return BroadcastErrors.OVERRIDE_NOT_FOUND.error("no broadcast override " + id + " in this tenant");
    }

    /** The rule that decides how {@code a} is shown, if any. Only calls are subject to rules. */
    Optional<Override> applicable(Activity a) {
        return applicable(a, () -> all(a.tenantId()));
    }

    /**
     * The rule of {@code rules} that decides how {@code a} is shown: among those matching a call, a scoped
     * rule beats an op-wide one, then more literal characters in the pattern win (the first of equals).
     * The rules are read only for a call.
     */
    static Optional<Override> applicable(Activity a, Supplier<List<Override>> rules) {
        if (a.kind() != Activity.Kind.DISPATCH || a.opId().isEmpty()) {
            return Optional.empty();
        }
        return rules.get().stream().filter(o -> o.matches(a)).max(Comparator.comparingInt(Override::specificity));
    }

    private List<Override> all(UUID tenant) {
        return cache.get(tenant.toString(), () -> store.all(tenant));
    }

    static String checkedPattern(String pattern) {
        if (pattern == null || pattern.isBlank() || pattern.length() > MAX_PATTERN) {
            throw BroadcastErrors.INVALID_OP_ID_PATTERN.error("op_id_pattern (a glob of 1.." + MAX_PATTERN
                    + " characters) is required", Map.of("field", "op_id_pattern"));
        }
        if (REGEX_CHARACTERS.matcher(pattern).find()) {
            throw BroadcastErrors.INVALID_OP_ID_PATTERN.error("op_id_pattern is a glob (* any run, ? one character, "
                    + "[...] a class), not a regular expression: it may not contain ^ $ + ( ) { } | or \\; got '"
                    + pattern + "'", Map.of("field", "op_id_pattern"));
        }
        if (!ALLOWED.matcher(pattern).matches()) {
            throw BroadcastErrors.INVALID_OP_ID_PATTERN.error("op_id_pattern may hold letters, digits, _ . : / - and the "
                    + "glob characters * ? [ ] !; got '" + pattern + "'", Map.of("field", "op_id_pattern"));
        }
        return pattern;
    }
}
