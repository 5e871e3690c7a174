package dev.backplane.kernel.retrieval;

import dev.backplane.kernel.persistence.ChangeFeed;
import dev.backplane.kernel.persistence.Jdbc;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;

/**
 * SQL of the embedding-model change ({@code retrieval_model}, {@code retrieval_chunks.model}): which model searches
 * use (active) and which one is being filled in (target), the entries still lacking the target's vectors, the switch,
 * and the old model's rows going once no replica reads them.
 */
final class ModelStore {

    /** The change-feed topic of a switch: every replica re-reads the state and serves the new model. */
    static final String TOPIC = "retrieval-model";

    /** The active model and the one being filled in (null: none). */
    record State(String active, String target) {

        /** The models an entry's vectors are written for: the active one, and the target while it fills in. */
        List<String> written() {
            return target == null ? List.of(active) : List.of(active, target);
        }

        Optional<String> filling() {
            return Optional.ofNullable(target);
        }
    }

    /** An entry whose vectors the target model still lacks. */
    record Lacking(String surface, UUID partition, UUID entryId) {
    }

    private final Jdbc jdbc;

    ModelStore(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    State state() {
        return jdbc.queryOne("SELECT active, target FROM retrieval_model", ModelStore::state)
                .orElseThrow(() -> new IllegalStateException("retrieval_model has no row (migration V053)"));
    }

    /**
     * The state on the caller's transaction, held against a switch until it commits: a writer that read it here
     * writes exactly the models it names, and a switch waits for that write.
     */
    static State stateForShare(Connection c) throws SQLException {
        return Jdbc.query(c, "SELECT active, target FROM retrieval_model FOR SHARE", ModelStore::state).getFirst();
    }

    /**
     * Makes {@code model} the one searches will use: at once when no chunk is stored yet (nothing to re-embed),
     * otherwise as the target to fill in (nothing when it is already active). Returns the state after.
     */
    State aim(String model) {
        return jdbc.inTransaction(c -> {
            State now = Jdbc.query(c, "SELECT active, target FROM retrieval_model FOR UPDATE", ModelStore::state).getFirst();
            if (now.active().equals(model)) {
                if (now.target() != null) {
                    Jdbc.update(c, "UPDATE retrieval_model SET target = NULL, changed_at = now()");
                }
                return new State(model, null);
            }
            boolean empty = Jdbc.query(c, "SELECT NOT EXISTS (SELECT 1 FROM retrieval_chunks WHERE model = ?)",
                    rs -> rs.getBoolean(1), now.active()).getFirst();
            if (empty) {
                Jdbc.update(c, "UPDATE retrieval_model SET active = ?, target = NULL, changed_at = now()", model);
                ChangeFeed.notifyOnCommit(c, TOPIC, model);
                return new State(model, null);
            }
            if (!model.equals(now.target())) {
                Jdbc.update(c, "UPDATE retrieval_model SET target = ?, changed_at = now()", model);
                ChangeFeed.notifyOnCommit(c, TOPIC, model);
            }
            return new State(now.active(), model);
        });
    }

    /**
     * Up to {@code limit} entries after {@code after} (in primary-key order: one pass over the table never reads a
     * row twice) with the active model's vectors and none of the target's.
     */
    List<Lacking> lacking(State state, Lacking after, int limit) {
        return jdbc.query("""
                SELECT a.surface, a.tenant_id, a.entry_id FROM retrieval_chunks a
                 WHERE (a.surface, a.entry_id) > (?, ?) AND a.model = ? AND a.chunk = 0
                   AND NOT EXISTS (SELECT 1 FROM retrieval_chunks b WHERE b.surface = a.surface
                       AND b.entry_id = a.entry_id AND b.model = ?)
                 ORDER BY a.surface, a.entry_id LIMIT ?""",
                rs -> new Lacking(rs.getString(1), rs.getObject(2, UUID.class), rs.getObject(3, UUID.class)),
                after.surface(), after.entryId(), state.active(), state.target(), limit);
    }

    /** Where a pass over the table starts. */
    static final Lacking START = new Lacking("", null, new UUID(0, 0));

    /** How many entries still lack the target's vectors (a gauge while a model fills in). */
    long lackingCount(State state) {
        return jdbc.queryOne("""
                SELECT count(*) FROM retrieval_chunks a WHERE a.model = ? AND a.chunk = 0 AND NOT EXISTS (
                       SELECT 1 FROM retrieval_chunks b WHERE b.surface = a.surface AND b.entry_id = a.entry_id
                          AND b.model = ?)""", rs -> rs.getLong(1), state.active(), state.target()).orElse(0L);
    }

    /**
     * Of {@code entries} (one surface), those that still lack the target's vectors, their active-model rows locked
     * until the caller's transaction ends: a writer of one of them waits, and one that committed before is seen (its
     * text is then read afresh on this transaction, so the vectors added are never those of an older text). An entry
     * deleted meanwhile is left out.
     */
    static List<UUID> lockLacking(Connection c, State state, String surface, List<UUID> entries) throws SQLException {
        return Jdbc.query(c, """
                SELECT DISTINCT a.entry_id FROM (SELECT entry_id FROM retrieval_chunks WHERE surface = ? AND model = ?
                       AND entry_id = ANY (?) FOR UPDATE) a
                 WHERE NOT EXISTS (SELECT 1 FROM retrieval_chunks b WHERE b.surface = ? AND b.entry_id = a.entry_id
                       AND b.model = ?)""", rs -> rs.getObject(1, UUID.class), surface, state.active(),
                entries.toArray(UUID[]::new), surface, state.target());
    }

    /**
     * Adds the target's vectors of some entries of one surface ({@code partitions}: entry to partition) on one
     * transaction: those still lacking them are locked ({@link #lockLacking}), their texts read on it, embedded and
     * written; an entry whose text is gone takes its orphaned rows with it. Returns how many got vectors.
     */
    int fill(State state, String surface, Map<UUID, UUID> partitions, RetrievalEngine.EntryTexts texts,
             Function<String, List<float[]>> embed) {
        return jdbc.inTransaction(c -> {
            List<UUID> still = lockLacking(c, state, surface, List.copyOf(partitions.keySet()));
            Map<UUID, String> text = texts.texts(c, still);
            int n = 0;
            for (UUID id : still) {
                String t = text.get(id);
                if (t == null) { // its entry is gone, and these rows with it: nothing to search, nothing to keep
                    ChunkStore.delete(c, surface, id);
                    continue;
                }
                ChunkStore.insert(c, partitions.get(id), surface, id, state.target(), embed.apply(t));
                n++;
            }
            return n;
        });
    }

    /**
     * Makes the target active when no entry lacks its vectors, under the state row's lock (writers hold it shared
     * until they commit, so none can add an entry of the active model alone after the check). Returns the state
     * after, or empty when the target is not complete (or another replica switched first).
     */
    Optional<State> switchIfComplete(State expected) {
        return jdbc.inTransaction(c -> {
            State now = Jdbc.query(c, "SELECT active, target FROM retrieval_model FOR UPDATE", ModelStore::state).getFirst();
            if (!now.equals(expected) || now.target() == null) {
                return Optional.<State>empty();
            }
            boolean complete = Jdbc.query(c, """
                    SELECT NOT EXISTS (SELECT 1 FROM retrieval_chunks a WHERE a.model = ? AND a.chunk = 0
                           AND NOT EXISTS (SELECT 1 FROM retrieval_chunks b WHERE b.surface = a.surface
                                 AND b.entry_id = a.entry_id AND b.model = ?))""", rs -> rs.getBoolean(1),
                    now.active(), now.target()).getFirst();
            if (!complete) {
                return Optional.<State>empty();
            }
            Jdbc.update(c, "UPDATE retrieval_model SET active = target, target = NULL, retired = active, changed_at = now()");
            ChangeFeed.notifyOnCommit(c, TOPIC, now.target());
            return Optional.of(new State(now.target(), null));
        });
    }

    /**
     * Deletes up to {@code limit} rows of the model active before the last switch, once the switch is {@code grace}
     * old (a replica that has not heard of it yet still reads them), unless that model is being filled in again;
     * forgets it once none is left. Rows of other models (an engine pinned to one model: benches, evaluations) are
     * never touched.
     */
    int deleteRetired(Duration grace, int limit) {
        return jdbc.inTransaction(c -> {
            // the state row held shared: a change of model (FOR UPDATE) waits until this batch is gone; nothing is
            // scanned at all unless a retired model is due (this runs every few seconds)
            List<String> due = Jdbc.query(c, """
                    SELECT retired FROM retrieval_model WHERE retired IS NOT NULL AND retired <> active
                       AND retired IS DISTINCT FROM target AND changed_at <= now() - make_interval(secs => ?)
                       FOR SHARE""", rs -> rs.getString(1), (double) grace.toSeconds());
            if (due.isEmpty()) {
                return 0;
            }
            int deleted = Jdbc.update(c, "DELETE FROM retrieval_chunks WHERE ctid = ANY (ARRAY("
                    + "SELECT ctid FROM retrieval_chunks WHERE model = ? LIMIT ?))", due.getFirst(), limit);
            if (deleted == 0) {
                Jdbc.update(c, "UPDATE retrieval_model SET retired = NULL WHERE retired = ?", due.getFirst());
            }
            return deleted;
        });
    }

    private static State state(java.sql.ResultSet rs) throws SQLException {
        return new State(rs.getString(1), rs.getString(2));
    }
}
