package dev.backplane.kernel.memory;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The five memory scopes (SPEC "Memory entry"): who sees an entry, whether it is a person's own (and so
 * expires by default), whether it names a target, how broad it is, and the retrieval partition it is indexed in.
 */
enum MemoryScope {
    USER("user", 2), USER_TENANT("user-tenant", 1), USER_TARGET("user-target", 0), TENANT("tenant", 2),
    TARGET("target", 1);

    /** Every scope's wire name, in the order above. */
    static final List<String> WIRE_NAMES = Arrays.stream(values()).map(MemoryScope::wireName).toList();

    private final String wire;
    /** How broad the scope is; promotion goes strictly up. */
    private final int breadth;

    MemoryScope(String wire, int breadth) {
        this.wire = wire;
        this.breadth = breadth;
    }

    String wireName() {
        return wire;
    }

    /** The scope a caller named, or {@code invalid_scope} listing the valid ones. */
    static MemoryScope require(String scope) {
        for (MemoryScope s : values()) {
            if (s.wire.equals(scope)) {
                return s;
            }
        }
        throw MemoryErrors.INVALID_SCOPE.error("scope must be one of " + WIRE_NAMES + ", got '" + scope + "'",
                Map.of("field", "scope", "valid_scopes", WIRE_NAMES));
    }

    /** A person's own entry (user, user-tenant, user-target): owned by its writer, expiring by default. */
    boolean personal() {
        return wire.startsWith("user");
    }

    /** An entry about one target (target, user-target): it needs a target name. */
    boolean targeted() {
        return wire.endsWith("target");
    }

    /** Promotion goes to a strictly broader scope. */
    boolean canPromoteTo(MemoryScope to) {
        return to.breadth > breadth;
    }

    /**
     * The retrieval partition an entry is indexed in: the tenant's shared one (tenant, target), the
     * writer's own in the tenant (user-tenant, user-target) or the writer's own across tenants (user).
     * A caller searches exactly the three it may read, so no ranking statistic ever counts another
     * user's personal entries. Migration V017 computes the same ids in SQL ({@code svc_name_uuid}).
     */
    UUID partition(UUID tenant, String sub) {
        return switch (this) {
            case USER -> UUID.nameUUIDFromBytes(("user:" + sub).getBytes(StandardCharsets.UTF_8));
            case USER_TENANT, USER_TARGET -> UUID.nameUUIDFromBytes(("personal:" + tenant + ":" + sub)
                    .getBytes(StandardCharsets.UTF_8));
            case TENANT, TARGET -> tenant;
        };
    }
}
