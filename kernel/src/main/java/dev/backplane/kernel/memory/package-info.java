/**
 * Memory: scoped notes with a lifetime in {@code memory_entries}. The five scopes ({@code user}, {@code
 * user-tenant}, {@code user-target}, {@code tenant}, {@code target}) decide who sees an entry, and a slug is unique
 * within its scope's owner; user scopes expire after {@code memory.user-default-ttl-days} unless told otherwise,
 * tenant and target scopes only when asked, and an entry may be promoted to a strictly broader scope. {@link
 * dev.backplane.kernel.memory.MemoryService} holds the rules, with {@code MemoryScope} (ownership, targets,
 * breadth, partitions) and {@code MemoryWrites} (an agent principal has no {@code user} scope, tenant scope takes
 * tenant_admin to write); {@code MemoryStore} holds the SQL. The service indexes each entry through {@code
 * retrieval.RetrievalEngine} in the entry's own transaction, and sweeps expired entries when the periodic jobs call it. {@link
 * dev.backplane.kernel.memory.MemoryRoutes} stay thin and also serve {@code GET /api/v1/retrieve}, a search over
 * the memory the caller can see.
 */
package dev.backplane.kernel.memory;
