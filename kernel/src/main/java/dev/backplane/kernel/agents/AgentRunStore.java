package dev.backplane.kernel.agents;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.persistence.ChangeFeed;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.util.JsonMapping;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * SQL for agent runs and their events ({@code agent_runs}, {@code agent_run_events}); no rules. A write that
 * moves a run's status only touches a run still in one of {@link AgentRun.Status#movable()}.
 */
final class AgentRunStore {

    /** An enqueued or handed-off run this replica claimed, with its prompt or checkpoint. */
    record Claimed(UUID handle, UUID tenant, String agent, String input, String startedBy, String resume,
                   String workRef) {
    }

    /** A run whose lease lapsed unfinished, failed by the reaper. */
    record Orphan(UUID handle, UUID tenant, String agent) {
    }

    /** Who is behind a run: its starter, and the authors of its trigger, dashboard and definition (may be null). */
    record Parties(String startedBy, String triggerAuthor, String dashboardAuthor, String definitionAuthor,
                   String agentName) {
    }

    /** The SQL guard of every status move: {@code ('pending', 'running', 'awaiting_approval')}. */
    static final String MOVABLE = AgentRun.Status.movable().stream().map(s -> "'" + s.wire() + "'")
            .collect(Collectors.joining(", ", "(", ")"));

    private final Jdbc jdbc;

    AgentRunStore(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    <T> T inTransaction(Jdbc.TxBody<T> body) {
        return jdbc.inTransaction(body);
    }

    void insertStarted(UUID handle, UUID tenant, String agentName, AgentRun.Status status, String startedBy,
                       String workRef, String inputSha256, Timestamp leaseUntil) {
        jdbc.update("""
                INSERT INTO agent_runs (handle, tenant_id, agent_name, status, started_by, work_ref, input_sha256,
                                        lease_owner, lease_until)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)""", handle, tenant, agentName, status.wire(), startedBy, workRef,
                inputSha256, handle.toString(), leaseUntil);
    }

    /** A pending run with its prompt on the caller's transaction, and its launch notice after commit. */
    static void enqueue(Connection c, UUID handle, UUID tenant, String agentName, String startedBy,
                        String inputSha256, String input, UUID triggerId, UUID eventId) throws SQLException {
        Jdbc.update(c, """
                INSERT INTO agent_runs (handle, tenant_id, agent_name, status, started_by, input_sha256, pending_input,
                                        trigger_id, event_id)
                VALUES (?, ?, ?, 'pending', ?, ?, ?, ?, ?)""", handle, tenant, agentName, startedBy,
                inputSha256, input, triggerId, eventId);
        ChangeFeed.notifyOnCommit(c, AgentRuns.LAUNCH_TOPIC, handle.toString());
    }

    /** Renews the lease of a run while its row is leased at all. */
    void renewLease(UUID handle, Timestamp until) {
        jdbc.update("UPDATE agent_runs SET lease_until = ? WHERE handle = ? AND lease_owner IS NOT NULL", until,
                handle);
    }

    /** Gives a run back to the launchers with its checkpoint; true when it was still unfinished. */
    boolean handOff(UUID handle, String checkpointJson) {
        return jdbc.inTransaction(c -> {
            int n = Jdbc.update(c, """
                    UPDATE agent_runs SET status = 'pending', resume_state = ?::jsonb, lease_owner = NULL,
                           lease_until = NULL, updated_at = now()
                    WHERE handle = ? AND status IN """ + MOVABLE, checkpointJson, handle);
            if (n == 1) {
                ChangeFeed.notifyOnCommit(c, AgentRuns.LAUNCH_TOPIC, handle.toString());
            }
            return n == 1;
        });
    }

    /** Writes a run's outcome and releases its lease, on the caller's transaction. */
    static void finish(Connection c, UUID handle, RunLoop.Outcome o) throws SQLException {
        Jdbc.update(c, """
                UPDATE agent_runs SET status = ?, output = ?, error = ?, error_code = ?, turns = ?, lease_owner = NULL,
                       lease_until = NULL, updated_at = now(), finished_at = now()
                WHERE handle = ? AND status IN """ + MOVABLE,
                o.status().wire(), o.output().map(Jdbc::jsonb).orElse(null), o.error().orElse(null),
                o.errorCode().orElse(null), o.turns(), handle);
    }

    static List<Parties> parties(Connection c, UUID tenant, UUID handle) throws SQLException {
        return Jdbc.query(c, """
                SELECT r.started_by, t.created_by, db.created_by, d.created_by, r.agent_name
                  FROM agent_runs r
                  LEFT JOIN scheduler_triggers t ON t.id = r.trigger_id AND t.tenant_id = r.tenant_id
                  LEFT JOIN dashboards db ON db.tenant_id = r.tenant_id AND r.started_by = 'svc-dashboard:' || db.id::text
                  LEFT JOIN agent_definitions d ON d.tenant_id = r.tenant_id AND d.name = r.agent_name
                 WHERE r.tenant_id = ? AND r.handle = ?""", rs -> new Parties(rs.getString(1), rs.getString(2),
                rs.getString(3), rs.getString(4), rs.getString(5)), tenant, handle);
    }

    /** Claims up to 20 launchable runs ({@code FOR UPDATE SKIP LOCKED}), leases them and clears their prompt. */
    List<Claimed> claimPending(Timestamp leaseUntil) {
        return jdbc.inTransaction(c -> Jdbc.query(c, """
                UPDATE agent_runs r SET status = 'running', pending_input = NULL, resume_state = NULL,
                       lease_owner = r.handle::text, lease_until = ?, updated_at = now()
                FROM (SELECT handle, pending_input, resume_state FROM agent_runs WHERE status = 'pending'
                      AND (pending_input IS NOT NULL OR resume_state IS NOT NULL)
                      AND NOT cancel_requested ORDER BY created_at LIMIT 20 FOR UPDATE SKIP LOCKED) p
                WHERE r.handle = p.handle
                RETURNING r.handle, r.tenant_id, r.agent_name, p.pending_input, r.started_by, p.resume_state::text,
                          r.work_ref""",
                rs -> new Claimed(rs.getObject(1, UUID.class), rs.getObject(2, UUID.class), rs.getString(3),
                        rs.getString(4), rs.getString(5), rs.getString(6), rs.getString(7)),
                leaseUntil));
    }

    /** Fails a claimed run that could not start, releasing its lease. */
    void failUnstarted(UUID handle, String error, String errorCode) {
        jdbc.update("""
                UPDATE agent_runs SET status = 'failed', error = ?, error_code = ?, finished_at = now(),
                       lease_owner = NULL, lease_until = NULL, updated_at = now() WHERE handle = ?""",
                error, errorCode, handle);
    }

    Optional<AgentRun> find(UUID tenant, UUID handle) {
        return jdbc.queryOne("SELECT * FROM agent_runs WHERE tenant_id = ? AND handle = ?", AgentRunStore::row,
                tenant, handle);
    }

    List<AgentRun> list(UUID tenant, Optional<String> agentName, Optional<String> status, Optional<String> workRef,
                        int limit, int offset) {
        return jdbc.query("""
                SELECT * FROM agent_runs WHERE tenant_id = ? AND (?::text IS NULL OR agent_name = ?)
                  AND (?::text IS NULL OR status = ?) AND (?::text IS NULL OR work_ref = ?)
                ORDER BY created_at DESC, handle LIMIT ? OFFSET ?""", AgentRunStore::row, tenant,
                agentName.orElse(null), agentName.orElse(null), status.orElse(null), status.orElse(null),
                workRef.orElse(null), workRef.orElse(null), limit, offset);
    }

    void requestCancel(UUID handle) {
        jdbc.update("UPDATE agent_runs SET cancel_requested = true, updated_at = now() WHERE handle = ?", handle);
    }

    /** Cancels a run that is still pending (no kernel runs it yet). */
    void cancelPending(UUID handle) {
        jdbc.update("""
                UPDATE agent_runs SET status = 'cancelled', error = 'cancelled before it started', error_code = 'cancelled',
                       finished_at = now(), lease_owner = NULL, lease_until = NULL WHERE handle = ? AND status = 'pending'""",
                handle);
    }

    Map<UUID, String> statuses(UUID tenant, Collection<UUID> handles) {
        Map<UUID, String> out = new HashMap<>();
        jdbc.query("SELECT handle, status FROM agent_runs WHERE tenant_id = ? AND handle = ANY(?::uuid[])",
                rs -> out.put(rs.getObject(1, UUID.class), rs.getString(2)), tenant,
                handles.stream().map(UUID::toString).toArray(String[]::new));
        return out;
    }

    List<AgentRuns.Event> events(UUID handle) {
        return jdbc.query("SELECT * FROM agent_run_events WHERE handle = ? ORDER BY seq", rs -> new AgentRuns.Event(
                rs.getInt("seq"), rs.getString("kind"), readTree(rs.getString("payload")),
                rs.getTimestamp("occurred_at").toInstant()), handle);
    }

    /** Fails every unfinished run whose lease lapsed, on the caller's transaction. */
    static List<Orphan> reapOrphans(Connection c) throws SQLException {
        return Jdbc.query(c, """
                UPDATE agent_runs SET status = 'failed', error = 'the kernel running it stopped; not re-run (a '
                       || 'governed write may not be safe to repeat)', error_code = 'run_orphaned', finished_at = now(),
                       lease_owner = NULL, lease_until = NULL, updated_at = now()
                WHERE status IN """ + MOVABLE + " AND lease_until < now()\n"
                + "RETURNING handle, tenant_id, agent_name", rs -> new Orphan(rs.getObject(1, UUID.class),
                rs.getObject(2, UUID.class), rs.getString(3)));
    }

    /** Whether run-cancel was asked for (true for a run that is gone). */
    boolean cancelRequested(UUID handle) {
        return jdbc.queryOne("SELECT cancel_requested FROM agent_runs WHERE handle = ?", rs -> rs.getBoolean(1), handle)
                .orElse(true);
    }

    void setStatus(UUID handle, AgentRun.Status status, Optional<UUID> approvalId) {
        jdbc.update("UPDATE agent_runs SET status = ?, approval_id = COALESCE(?, approval_id), updated_at = now() "
                + "WHERE handle = ? AND status IN " + MOVABLE, status.wire(), approvalId.orElse(null), handle);
    }

    void event(UUID handle, String kind, Map<String, Object> payload) {
        jdbc.update("""
                INSERT INTO agent_run_events (handle, seq, kind, payload)
                VALUES (?, (SELECT COALESCE(max(seq), 0) + 1 FROM agent_run_events WHERE handle = ?), ?, ?)""",
                handle, handle, kind, Jdbc.jsonb(payload));
    }

    void turns(UUID handle, int turns) {
        jdbc.update("UPDATE agent_runs SET turns = ?, updated_at = now() WHERE handle = ?", turns, handle);
    }

    private static JsonNode readTree(String json) {
        try {
            return JsonMapping.mapper().readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static AgentRun row(ResultSet rs) throws SQLException {
        String output = rs.getString("output");
        Timestamp finished = rs.getTimestamp("finished_at");
        return new AgentRun(rs.getObject("handle", UUID.class), rs.getString("agent_name"), rs.getString("status"),
                Optional.ofNullable(rs.getString("work_ref")), rs.getString("started_by"), rs.getString("input_sha256"),
                rs.getInt("turns"), Optional.ofNullable(output).map(AgentRunStore::readTree),
                Optional.ofNullable(rs.getString("error")), Optional.ofNullable(rs.getString("error_code")),
                Optional.ofNullable(rs.getObject("approval_id", UUID.class)), rs.getTimestamp("created_at").toInstant(),
                rs.getTimestamp("updated_at").toInstant(), Optional.ofNullable(finished).map(Timestamp::toInstant));
    }
}
