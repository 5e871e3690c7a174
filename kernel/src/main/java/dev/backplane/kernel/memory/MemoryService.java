package dev.backplane.kernel.memory;

import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.identity.Role;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.persistence.PeriodicJob;
import dev.backplane.kernel.retrieval.Candidates;
import dev.backplane.kernel.retrieval.RetrievalEngine;
import dev.backplane.kernel.retrieval.SearchLog;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * Memory: scoped notes with a lifetime (SPEC "Memory entry"). Five scopes decide who sees an entry;
 * the slug is the natural key within the scope's owner context. User scopes default to a TTL
 * ({@code memory.user-default-ttl-days}); tenant and target scopes never expire unless asked.
 * Expired entries are hidden unless asked for, and swept by a scheduled job.
 */
public final class MemoryService {

    static final String SURFACE = "memory";

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

    private final MemoryStore store;
    private final RetrievalEngine engine;
    private final MemoryWrites writes;

    public MemoryService(Jdbc jdbc, RetrievalEngine engine, Duration userDefaultTtl) {
        this.store = new MemoryStore(jdbc);
        this.engine = engine;
        this.writes = new MemoryWrites(userDefaultTtl);
        engine.entryTexts(SURFACE, (c, ids) -> MemoryStore.indexTexts(c, ids, RetrievalEngine::entryText));
    }

    /** The retrieval partition an entry of {@code scope} is indexed in (see {@link MemoryScope#partition}). */
    static UUID partition(String scope, UUID tenant, String sub) {
        return MemoryScope.require(scope).partition(tenant, sub);
    }

    public Entry add(Caller caller, Write w) {
        MemoryWrites.Checked ok = writes.check(caller, w);
        UUID id = UUID.randomUUID();
        UUID partition = ok.scope().partition(caller.tenantId(), caller.sub());
        // embeddings first (slow, no transaction open), then the entry and its index in one transaction
        RetrievalEngine.Prepared prepared = engine.prepare(RetrievalEngine.entryText(ok.slug(), ok.body()));
        UUID stored = store.inTransaction(c -> {
            UUID row = MemoryStore.upsert(c, id, ok.scope().wireName(), ok.tenant().orElse(null),
                    ok.owner().orElse(null), ok.target().orElse(null), ok.slug(), ok.body(), ok.metadata(),
                    ok.expires(), caller.sub());
            engine.indexIn(c, partition, SURFACE, row, prepared);
            return row;
        });
        engine.indexed(partition, SURFACE, stored);
        return store.byId(stored).orElseThrow();
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
        scope.ifPresent(MemoryScope::require);
        return store.list(caller, scope, slugPattern, tag, includeExpired, limit, offset);
    }

    /** Every live entry the caller can see, oldest first, at most {@code max} (the retrieval eval's corpus). */
    public List<Entry> visible(Caller caller, int max) {
        return store.visible(caller, max);
    }

    public Entry show(Caller caller, String scope, String slug, Optional<String> targetName) {
        MemoryScope.require(scope);
        List<Entry> found = store.visibleBySlug(caller, scope, slug, targetName);
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
        scope.ifPresent(MemoryScope::require);
        Candidates candidates;
        if (scope.isPresent()) {
            Set<UUID> visible = store.visibleIds(caller, scope.get());
            if (visible.isEmpty()) {
                return List.of();
            }
            candidates = Candidates.only(visible);
        } else {
            // the three partitions searched hold only what the caller may read; of it, only expired entries
            // (few: they are swept) are left out
            candidates = Candidates.except(store.expiredVisibleIds(caller));
        }
        List<RetrievalEngine.Hit> hits = engine.search(List.of(caller.tenantId(),
                partition("user-tenant", caller.tenantId(), caller.sub()), partition("user", null, caller.sub())),
                SURFACE, query, limit, RetrievalEngine.Mode.HYBRID, candidates);
        Map<UUID, Entry> byId = new LinkedHashMap<>();
        // visibility checked again on the way out: what the caller may not read is never returned
        store.visibleAmong(caller, hits.stream().map(RetrievalEngine.Hit::entryId).toArray(UUID[]::new))
                .forEach(e -> byId.put(e.id(), e));
        return hits.stream().filter(h -> byId.containsKey(h.entryId())).map(h -> {
            Entry e = byId.get(h.entryId());
            return new Hit(e.scope(), e.slug(), snippet(e.body()), Math.round(h.score() * 1e6) / 1e6);
        }).toList();
    }

    /** Promotes to a strictly broader scope; {@code move} deletes the source in the same transaction. */
    public Entry promote(Caller caller, String scope, String slug, Optional<String> targetName, String to, boolean move) {
        Entry source = show(caller, scope, slug, targetName);
        MemoryScope from = MemoryScope.require(scope);
        MemoryScope into = MemoryScope.require(to);
        if (!from.canPromoteTo(into)) {
            throw MemoryErrors.INVALID_PROMOTION.error("promotion goes to a strictly broader scope: " + scope
                    + " → " + to + " is not", Map.of("from", scope, "to", to));
        }
        if (into == MemoryScope.TENANT && !caller.effectiveRole().includes(Role.TENANT_ADMIN)) {
            throw CommonErrors.INSUFFICIENT_ROLE.error("promoting to tenant scope needs tenant_admin")
                    .withExtras("required_role", "tenant_admin");
        }
        if (from == MemoryScope.USER && !caller.sub().equals(store.ownerOf(source.id()).orElse(""))) {
            throw MemoryErrors.NOT_OWNER.error("only the writer may promote a user memory");
        }
        Optional<String> target = into.targeted() ? source.targetName() : Optional.empty();
        if (into.targeted() && target.isEmpty()) {
            throw MemoryErrors.TARGET_NAME_REQUIRED.error("promoting to " + to + " needs a target",
                    Map.of("field", "target_name"));
        }
        @SuppressWarnings("unchecked")
        List<String> tags = (List<String>) source.metadata().getOrDefault("tags", List.of());
        Entry promoted = add(caller, new Write(to, Optional.of(slug), source.body(), tags, target,
                into.personal() ? source.expiresAt() : Optional.empty(), !into.personal()));
        if (move) {
            store.delete(source.id());
            engine.unindex(from.partition(caller.tenantId(), caller.sub()), SURFACE, source.id());
        }
        return promoted;
    }

    /** Deletes expired entries (the scheduled sweep); returns how many. */
    public int sweepExpired() {
        List<MemoryStore.Swept> gone = store.deleteExpired();
        gone.forEach(g -> engine.unindex(partition(g.scope(), g.tenant(), g.owner()), SURFACE, g.id()));
        return gone.size();
    }

    static String snippet(String body) {
        String flat = body.replaceAll("\\s+", " ").strip();
        return flat.length() <= 200 ? flat : flat.substring(0, 197) + "...";
    }

    /** Deleting expired memory entries. */
    public List<PeriodicJob> periodicJobs() {
        return List.of(new PeriodicJob("memory-sweep", Duration.ofMinutes(10), this::sweepExpired));
    }
}
