package dev.backplane.kernel.memory;

import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.PrincipalKind;
import dev.backplane.kernel.identity.Role;
import dev.backplane.kernel.persistence.FilteredSelect;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.persistence.PeriodicJob;
import dev.backplane.kernel.retrieval.Candidates;
import dev.backplane.kernel.retrieval.RetrievalEngine;
import dev.backplane.kernel.retrieval.SearchLog;
import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Memory: scoped notes with a lifetime (SPEC "Memory entry"). Five scopes decide who sees an entry;
 * the slug is the natural key within the scope's owner context. User scopes default to a TTL
 * ({@code memory.user-default-ttl-days}); tenant and target scopes never expire unless asked.
 * Expired entries are hidden unless asked for, and swept by a scheduled job.
 */
public final class MemoryService {

    static final String SURFACE = "memory";
    static final List<String> SCOPES = List.of("user", "user-tenant", "user-target", "tenant", "target");
    /** How broad each scope is; promotion goes strictly up. */
    private static final Map<String, Integer> BREADTH = Map.of("user-target", 0, "user-tenant", 1, "target", 1,
            "user", 2, "tenant", 2);
    private static final Pattern SLUG = Pattern.compile("[a-z0-9][a-z0-9._-]{0,127}");
    static final int MAX_BODY = 64 * 1024;

    /** A memory entry. */
    public record Entry(UUID id, String scope, String slug, String body, Map<String, Object> metadata,
                        Optional<String> targetName, Optional<Instant> expiresAt, Instant createdAt) {
    }

    /** A search hit: never the full body. */
    public record Hit(String scope, String slug, String snippet, double score) {
    }

    /** A write: when {@code expiresAt} is empty the scope's default applies; {@code persist} keeps it forever. */
    public record Write(String scope, Optional<String> slug, String body, List<String> tags, Optional<String> targetName,
                        Optional<Instant> expiresAt, boolean persist) {
    }

    private final Jdbc jdbc;
    private final RetrievalEngine engine;
    private final Duration userDefaultTtl;

    public MemoryService(Jdbc jdbc, RetrievalEngine engine, Duration userDefaultTtl) {
        this.jdbc = jdbc;
        this.engine = engine;
        this.userDefaultTtl = userDefaultTtl;
    }

    /**
     * The retrieval partition an entry is indexed in: the tenant's shared one (tenant, target), the
     * writer's own in the tenant (user-tenant, user-target) or the writer's own across tenants (user).
     * A caller searches exactly the three it may read, so no ranking statistic ever counts another
     * user's personal entries. Migration V017 computes the same ids in SQL ({@code svc_name_uuid}).
     */
    static UUID partition(String scope, UUID tenant, String sub) {
        return switch (scope) {
            case "user" -> UUID.nameUUIDFromBytes(("user:" + sub).getBytes(StandardCharsets.UTF_8));
            case "user-tenant", "user-target" -> UUID.nameUUIDFromBytes(("personal:" + tenant + ":" + sub)
                    .getBytes(StandardCharsets.UTF_8));
            default -> tenant;
        };
    }

    public Entry add(Caller caller, Write w) {
        String scope = requireScope(w.scope());
        if (scope.equals("user") && caller.kind() == PrincipalKind.AGENT) {
            // an agent principal belongs to one tenant; the user scope spans tenants (review 3, S1)
            throw MemoryErrors.INVALID_SCOPE.error("an agent principal has no cross-tenant user scope; use user-tenant "
                    + "(yours, in this tenant) or tenant", Map.of("field", "scope"));
        }
        if (scope.equals("tenant") && !caller.effectiveRole().includes(Role.TENANT_ADMIN)) {
            throw CommonErrors.INSUFFICIENT_ROLE.error("writing tenant-scope memory needs tenant_admin")
                    .withExtras("required_role", "tenant_admin");
        }
        boolean targeted = scope.endsWith("target");
        if (targeted && w.targetName().filter(t -> !t.isBlank()).isEmpty()) {
            throw MemoryErrors.TARGET_NAME_REQUIRED.error(scope + " memory needs target_name",
                    Map.of("field", "target_name"));
        }
        if (!targeted && w.targetName().isPresent()) {
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
        Optional<Instant> expires = w.persist() ? Optional.empty() : w.expiresAt().or(() -> scope.startsWith("user")
                ? Optional.of(Instant.now().plus(userDefaultTtl)) : Optional.empty());
        UUID tenant = scope.equals("user") ? null : caller.tenantId();
        String owner = scope.startsWith("user") ? caller.sub() : null;
        String target = targeted ? w.targetName().get() : null;
        Map<String, Object> meta = new LinkedHashMap<>();
        meta.put("tags", w.tags() == null ? List.of() : w.tags());
        UUID id = UUID.randomUUID();
        UUID partition = partition(scope, caller.tenantId(), caller.sub());
        // embeddings first (slow, no transaction open), then the entry and its index in one transaction
        RetrievalEngine.Prepared prepared = engine.prepare(slug.replace('-', ' ') + "\n" + w.body());
        UUID stored = jdbc.inTransaction(c -> {
            UUID row = Jdbc.query(c, """
                INSERT INTO memory_entries (id, scope, tenant_id, owner_sub, target_name, slug, body, metadata, expires_at,
                                            created_by)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (scope, coalesce(tenant_id::text, ''), coalesce(owner_sub, ''), coalesce(target_name, ''), slug)
                DO UPDATE SET body = EXCLUDED.body, metadata = EXCLUDED.metadata, expires_at = EXCLUDED.expires_at,
                              updated_at = now()
                RETURNING id""", rs -> rs.getObject(1, UUID.class), id, scope, tenant, owner, target, slug, w.body(),
                Jdbc.jsonb(meta), expires.map(Timestamp::from).orElse(null), caller.sub()).getFirst();
            engine.indexIn(c, partition, SURFACE, row, prepared);
            return row;
        });
        engine.indexed(partition, SURFACE, stored);
        return byId(stored).orElseThrow();
    }

    /** Entries the caller can see, newest first. */
    public List<Entry> list(Caller caller, Optional<String> scope, Optional<String> slugPattern, Optional<String> tag,
                            boolean includeExpired, int limit, int offset) {
        if (limit < 1 || limit > 500) {
            throw CommonErrors.INVALID_LIMIT.error("limit must be 1..500", Map.of("field", "limit"));
        }
        if (offset < 0) {
            throw CommonErrors.INVALID_OFFSET.error("offset must be 0 or more", Map.of("field", "offset"));
        }
        scope.ifPresent(MemoryService::requireScope);
        return new FilteredSelect("SELECT * FROM memory_entries WHERE " + VISIBLE, caller.sub(), caller.tenantId(),
                caller.sub(), caller.tenantId())
                .and("scope = ?", scope)
                .and("strpos(slug, ?) > 0", slugPattern)
                .and("jsonb_exists(metadata -> 'tags', ?)", tag)
                .andIf(!includeExpired, "(expires_at IS NULL OR expires_at > now())")
                .append(" ORDER BY created_at DESC, id LIMIT ? OFFSET ?", limit, offset)
                .query(jdbc, MemoryService::entry);
    }

    /** Who sees what (SPEC scope rules); four parameters: sub, tenant, sub, tenant. */
    private static final String VISIBLE = """
            ((scope = 'user' AND owner_sub = ?)
              OR (scope IN ('user-tenant', 'user-target') AND tenant_id = ? AND owner_sub = ?)
              OR (scope IN ('tenant', 'target') AND tenant_id = ?))""";

    /** Every live entry the caller can see, oldest first, at most {@code max} (the retrieval eval's corpus). */
    public List<Entry> visible(Caller caller, int max) {
        return jdbc.query("SELECT * FROM memory_entries WHERE " + VISIBLE + " AND (expires_at IS NULL OR expires_at > "
                + "now()) ORDER BY created_at, id LIMIT ?", MemoryService::entry, caller.sub(), caller.tenantId(),
                caller.sub(), caller.tenantId(), max);
    }

    public Entry show(Caller caller, String scope, String slug, Optional<String> targetName) {
        requireScope(scope);
        List<Entry> found = jdbc.query("SELECT * FROM memory_entries WHERE " + VISIBLE + " AND scope = ? AND slug = ? "
                        + "AND (expires_at IS NULL OR expires_at > now()) AND (CAST(? AS text) IS NULL OR target_name = ?) ORDER BY created_at",
                MemoryService::entry, caller.sub(), caller.tenantId(), caller.sub(), caller.tenantId(), scope, slug,
                targetName.orElse(null), targetName.orElse(null));
        if (found.isEmpty()) {
            throw MemoryErrors.MEMORY_NOT_FOUND.error("no memory " + scope + "/" + slug + " visible to you");
        }
        if (found.size() > 1) {
            throw MemoryErrors.TARGET_NAME_REQUIRED.error(scope + "/" + slug + " exists for several targets; "
                    + "name one with target_name", Map.of("targets", found.stream().map(e -> e.targetName().orElse(""))
                    .toList()));
        }
        return found.getFirst();
    }

    /** A search an operator or agent makes, recorded for {@code svc retrieval usage} (without its text). */
    public List<Hit> search(Caller caller, SearchLog.Transport via, String query, Optional<String> scope, int limit) {
        return engine.searches().record(caller, SearchLog.Surface.MEMORY, via, query,
                () -> search(caller, query, scope, limit), List::size);
    }

    /** A search that is not recorded (the retrieval eval's own). */
    public List<Hit> search(Caller caller, String query, Optional<String> scope, int limit) {
        RetrievalEngine.requireQuery(query);
        if (limit < 1 || limit > 50) {
            throw CommonErrors.INVALID_LIMIT.error("limit must be 1..50", Map.of("field", "limit"));
        }
        scope.ifPresent(MemoryService::requireScope);
        Candidates candidates;
        if (scope.isPresent()) {
            Set<UUID> visible = new HashSet<>(jdbc.query("SELECT id FROM memory_entries WHERE " + VISIBLE
                    + " AND (expires_at IS NULL OR expires_at > now()) AND scope = ?", rs -> rs.getObject(1, UUID.class),
                    caller.sub(), caller.tenantId(), caller.sub(), caller.tenantId(), scope.get()));
            if (visible.isEmpty()) {
                return List.of();
            }
            candidates = Candidates.only(visible);
        } else {
            // the three partitions searched hold only what the caller may read; of it, only expired entries
            // (few: they are swept) are left out
            candidates = Candidates.except(new HashSet<>(jdbc.query("SELECT id FROM memory_entries WHERE "
                    + "expires_at <= now() AND " + VISIBLE, rs -> rs.getObject(1, UUID.class), caller.sub(),
                    caller.tenantId(), caller.sub(), caller.tenantId())));
        }
        List<RetrievalEngine.Hit> hits = engine.search(List.of(caller.tenantId(),
                partition("user-tenant", caller.tenantId(), caller.sub()), partition("user", null, caller.sub())),
                SURFACE, query, limit, RetrievalEngine.Mode.HYBRID, candidates);
        Map<UUID, Entry> byId = new LinkedHashMap<>();
        // visibility checked again on the way out: what the caller may not read is never returned
        jdbc.query("SELECT * FROM memory_entries WHERE id = ANY (?) AND " + VISIBLE
                        + " AND (expires_at IS NULL OR expires_at > now())", MemoryService::entry,
                hits.stream().map(RetrievalEngine.Hit::entryId).toArray(UUID[]::new), caller.sub(), caller.tenantId(),
                caller.sub(), caller.tenantId()).forEach(e -> byId.put(e.id(), e));
        return hits.stream().filter(h -> byId.containsKey(h.entryId())).map(h -> {
            Entry e = byId.get(h.entryId());
            return new Hit(e.scope(), e.slug(), snippet(e.body()), Math.round(h.score() * 1e6) / 1e6);
        }).toList();
    }

    /** Promotes to a strictly broader scope; {@code move} deletes the source in the same transaction. */
    public Entry promote(Caller caller, String scope, String slug, Optional<String> targetName, String to, boolean move) {
        Entry source = show(caller, scope, slug, targetName);
        requireScope(to);
        if (BREADTH.get(to) <= BREADTH.get(scope)) {
            throw MemoryErrors.INVALID_PROMOTION.error("promotion goes to a strictly broader scope: " + scope
                    + " → " + to + " is not", Map.of("from", scope, "to", to));
        }
        if (to.equals("tenant") && !caller.effectiveRole().includes(Role.TENANT_ADMIN)) {
            throw CommonErrors.INSUFFICIENT_ROLE.error("promoting to tenant scope needs tenant_admin")
                    .withExtras("required_role", "tenant_admin");
        }
        if ((scope.equals("user") && !caller.sub().equals(ownerOf(source.id())))) {
            throw MemoryErrors.NOT_OWNER.error("only the writer may promote a user memory");
        }
        Optional<String> target = to.endsWith("target") ? source.targetName() : Optional.empty();
        if (to.endsWith("target") && target.isEmpty()) {
            throw MemoryErrors.TARGET_NAME_REQUIRED.error("promoting to " + to + " needs a target",
                    Map.of("field", "target_name"));
        }
        @SuppressWarnings("unchecked")
        List<String> tags = (List<String>) source.metadata().getOrDefault("tags", List.of());
        Entry promoted = add(caller, new Write(to, Optional.of(slug), source.body(), tags, target,
                to.startsWith("user") ? source.expiresAt() : Optional.empty(), !to.startsWith("user")));
        if (move) {
            jdbc.update("DELETE FROM memory_entries WHERE id = ?", source.id());
            engine.unindex(partition(scope, caller.tenantId(), caller.sub()), SURFACE, source.id());
        }
        return promoted;
    }

    /** Deletes expired entries (the scheduled sweep); returns how many. */
    public int sweepExpired() {
        List<UUID[]> gone = jdbc.query("DELETE FROM memory_entries WHERE expires_at IS NOT NULL AND expires_at <= now() "
                + "RETURNING id, tenant_id, owner_sub, scope", rs -> new UUID[] {rs.getObject(1, UUID.class),
                partition(rs.getString(4), rs.getObject(2, UUID.class), rs.getString(3))});
        gone.forEach(g -> engine.unindex(g[1], SURFACE, g[0]));
        return gone.size();
    }

    private String ownerOf(UUID id) {
        return jdbc.queryOne("SELECT owner_sub FROM memory_entries WHERE id = ?", rs -> rs.getString(1), id).orElse("");
    }

    private Optional<Entry> byId(UUID id) {
        return jdbc.queryOne("SELECT * FROM memory_entries WHERE id = ?", MemoryService::entry, id);
    }

    static String requireScope(String scope) {
        if (scope == null || !SCOPES.contains(scope)) {
            throw MemoryErrors.INVALID_SCOPE.error("scope must be one of " + SCOPES + ", got '" + scope + "'",
                    Map.of("field", "scope", "valid_scopes", SCOPES));
        }
        return scope;
    }

    static String generatedSlug(String body) {
        String words = body.toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-+|-+$", "");
        String head = words.length() > 40 ? words.substring(0, 40).replaceAll("-+$", "") : words;
        return (head.isEmpty() ? "note" : head) + "-" + Long.toString(System.nanoTime() % 1_000_000L, 36);
    }

    static String snippet(String body) {
        String flat = body.replaceAll("\\s+", " ").strip();
        return flat.length() <= 200 ? flat : flat.substring(0, 197) + "...";
    }

    private static Entry entry(ResultSet rs) throws SQLException {
        Map<String, Object> meta = Jdbc.jsonObject(rs, "metadata");
        Timestamp exp = rs.getTimestamp("expires_at");
        return new Entry(rs.getObject("id", UUID.class), rs.getString("scope"), rs.getString("slug"), rs.getString("body"),
                meta, Optional.ofNullable(rs.getString("target_name")), Optional.ofNullable(exp).map(Timestamp::toInstant),
                rs.getTimestamp("created_at").toInstant());
    }

    /** Deleting expired memory entries. */
    public List<PeriodicJob> periodicJobs() {
        return List.of(new PeriodicJob("memory-sweep", Duration.ofMinutes(10), this::sweepExpired));
    }
}
