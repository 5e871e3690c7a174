package dev.backplane.kernel.retrieval;

import dev.backplane.kernel.persistence.Jdbc;
import java.util.UUID;

/** SQL of {@link SearchLog}: the recorded searches in {@code retrieval_searches}. */
final class SearchLogStore {

    /** One recorded search: who, where, how it came in, the query's digest and length, hits and latency. */
    record Search(UUID tenant, String surface, String principal, String principalKind, String transport,
                  String querySha256, int queryChars, int hits, int latencyMs) {
    }

    private final Jdbc jdbc;

    SearchLogStore(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    void insert(Search s) {
        jdbc.update("""
                INSERT INTO retrieval_searches (tenant_id, surface, principal, principal_kind, transport, query_sha256,
                                                query_chars, hits, latency_ms)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)""", s.tenant(), s.surface(), s.principal(), s.principalKind(),
                s.transport(), s.querySha256(), s.queryChars(), s.hits(), s.latencyMs());
    }

    /** Deletes search records older than {@code days}. */
    int deleteOlderThan(int days) {
        return jdbc.update("DELETE FROM retrieval_searches WHERE searched_at < now() - make_interval(days => ?)", days);
    }
}
