package dev.backplane.kernel.memory;

import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.PrincipalKind;
import dev.backplane.kernel.identity.Role;
import dev.backplane.kernel.memory.MemoryService.Write;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * What a memory write must satisfy — who may write the scope, its target name, body and slug — and where it
 * lands: the owner context of its scope and its expiry (user scopes default to a TTL, the others never expire
 * unless asked).
 */
final class MemoryWrites {

    static final int MAX_BODY = 64 * 1024;
    private static final Pattern SLUG = Pattern.compile("[a-z0-9][a-z0-9._-]{0,127}");

    /** A write that passed the checks: the entry's natural key, body, metadata and expiry. */
    record Checked(MemoryScope scope, Optional<UUID> tenant, Optional<String> owner, Optional<String> target,
                   String slug, String body, Map<String, Object> metadata, Optional<Instant> expires) {
    }

    private final Duration userDefaultTtl;

    MemoryWrites(Duration userDefaultTtl) {
        this.userDefaultTtl = userDefaultTtl;
    }

    Checked check(Caller caller, Write w) {
        MemoryScope scope = MemoryScope.require(w.scope());
        if (scope == MemoryScope.USER && caller.kind() == PrincipalKind.AGENT) {
            // an agent principal belongs to one tenant; the user scope spans tenants (review 3, S1)
            throw MemoryErrors.INVALID_SCOPE.error("an agent principal has no cross-tenant user scope; use user-tenant "
                    + "(yours, in this tenant) or tenant", Map.of("field", "scope"));
        }
        if (scope == MemoryScope.TENANT && !caller.effectiveRole().includes(Role.TENANT_ADMIN)) {
            throw CommonErrors.INSUFFICIENT_ROLE.error("writing tenant-scope memory needs tenant_admin")
                    .withExtras("required_role", "tenant_admin");
        }
        if (scope.targeted() && w.targetName().filter(t -> !t.isBlank()).isEmpty()) {
            throw MemoryErrors.TARGET_NAME_REQUIRED.error(scope.wireName() + " memory needs target_name",
                    Map.of("field", "target_name"));
        }
        if (!scope.targeted() && w.targetName().isPresent()) {
            throw MemoryErrors.INVALID_SCOPE.error("target_name only goes with the target and user-target "
                    + "scopes", Map.of("field", "target_name"));
        }
        if (w.body() == null || w.body().isBlank()) {
            throw CommonErrors.INVALID_BODY.error("body is empty", Map.of("field", "body"));
        }
        if (w.body().getBytes(StandardCharsets.UTF_8).length > MAX_BODY) {
            throw CommonErrors.INVALID_BODY.error("body exceeds " + MAX_BODY + " bytes", Map.of("field", "body"));
        }
        String slug = w.slug().orElseGet(() -> generatedSlug(w.body()));
        if (!SLUG.matcher(slug).matches()) {
            throw CommonErrors.INVALID_SLUG.error("slug must be 1-128 lower-case letters, digits, '.', '_' "
                    + "or '-'", Map.of("field", "slug"));
        }
        Optional<Instant> expires = w.persist() ? Optional.empty() : w.expiresAt().or(() -> scope.personal()
                ? Optional.of(Instant.now().plus(userDefaultTtl)) : Optional.empty());
        Map<String, Object> meta = new LinkedHashMap<>();
        meta.put("tags", w.tags() == null ? List.of() : w.tags());
        return new Checked(scope, scope == MemoryScope.USER ? Optional.empty() : Optional.ofNullable(caller.tenantId()),
                scope.personal() ? Optional.of(caller.sub()) : Optional.empty(),
                scope.targeted() ? w.targetName() : Optional.empty(), slug, w.body(), meta, expires);
    }

    /** A slug from the body's first words, made unique enough by a short time suffix. */
    static String generatedSlug(String body) {
        String words = body.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-+|-+$", "");
        String head = words.length() > 40 ? words.substring(0, 40).replaceAll("-+$", "") : words;
        return (head.isEmpty() ? "note" : head) + "-" + Long.toString(System.nanoTime() % 1_000_000L, 36);
    }
}
