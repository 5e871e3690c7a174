package dev.backplane.kernel.runbooks;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.persistence.FilteredSelect;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.runbooks.RunbookRun.Phase;
import dev.backplane.kernel.runbooks.RunbookRun.Status;
import dev.backplane.kernel.util.Paging;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The SQL of runbook runs ({@code runbook_runs}) and their logs ({@code runbook_run_log}). Every write
 * of a run's state is one statement on the run's row, made while the caller holds that row's lock.
 */
final class RunbookRunStore {

    /** A run row. */
    record Row(UUID id, UUID tenantId, String slug, int version, Optional<String> target, Map<String, String> inputs,
               Optional<String> workRef, Status status, int step, Phase phase, Optional<UUID> approvalId,
               JsonNode lastResult, String assignee, Optional<String> escalatedBy, Optional<String> reason,
               Instant startedAt, Instant updatedAt, Optional<Instant> finishedAt) {

        static Row read(ResultSet rs) throws SQLException {
            Map<String, String> inputs = new LinkedHashMap<>();
            Jdbc.jsonObject(rs, "inputs").forEach((k, v) -> inputs.put(k, String.valueOf(v)));
            Timestamp finished = rs.getTimestamp("finished_at");
            return new Row(rs.getObject("id", UUID.class), rs.getObject("tenant_id", UUID.class), rs.getString("slug"),
                    rs.getInt("version"), Optional.ofNullable(rs.getString("target")), inputs,
                    Optional.ofNullable(rs.getString("work_ref")), Status.of(rs.getString("status")), rs.getInt("step"),
                    Phase.of(rs.getString("phase")), Optional.ofNullable(rs.getObject("approval_id", UUID.class)),
                    Jdbc.jsonTree(rs, "last_result"), rs.getString("assignee"),
                    Optional.ofNullable(rs.getString("escalated_by")), Optional.ofNullable(rs.getString("reason")),
                    rs.getTimestamp("started_at").toInstant(), rs.getTimestamp("updated_at").toInstant(),
                    Optional.ofNullable(finished).map(Timestamp::toInstant));
        }
    }

    private final Jdbc jdbc;

    RunbookRunStore(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    <T> T inTransaction(Jdbc.TxBody<T> body) {
        return jdbc.inTransaction(body);
    }

    Optional<Row> find(UUID tenant, UUID id) {
        return jdbc.queryOne("SELECT * FROM runbook_runs WHERE tenant_id = ? AND id = ?", Row::read, tenant, id);
    }

    /** The run's row, locked until the transaction ends. */
    static Optional<Row> lock(Connection c, UUID tenant, UUID id) throws SQLException {
        return Jdbc.query(c, "SELECT * FROM runbook_runs WHERE tenant_id = ? AND id = ? FOR UPDATE", Row::read,
                tenant, id).stream().findFirst();
    }

    /** A tenant's runs, newest first. */
    List<Row> list(UUID tenant, Optional<Status> status, Optional<String> slug, Paging page) {
        return new FilteredSelect("SELECT * FROM runbook_runs WHERE tenant_id = ?", tenant)
                .and("status = ?", status.map(Status::wire))
                .and("slug = ?", slug)
                .append(" ORDER BY started_at DESC, id LIMIT ? OFFSET ?", page.limit(), page.offset())
                .query(jdbc, Row::read);
    }

    /** The run's log as shown: 1-based steps, oldest entry first. */
    List<Map<String, Object>> log(UUID run) {
        return jdbc.query("SELECT * FROM runbook_run_log WHERE run_id = ? ORDER BY seq", rs -> {
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("step", rs.getInt("step") + 1);
            e.put("action", rs.getString("action"));
            e.put("outcome", rs.getString("outcome"));
            e.put("detail", Jdbc.jsonObject(rs, "detail"));
            e.put("actor", rs.getString("actor"));
            e.put("at", rs.getTimestamp("at").toInstant());
            return e;
        }, run);
    }

    /** A new run: in progress at its first step, nothing run yet. */
    static void insert(Connection c, UUID id, UUID tenant, String slug, int version, Optional<String> target,
                       Map<String, String> inputs, String workRef, String assignee) throws SQLException {
        Jdbc.update(c, """
                INSERT INTO runbook_runs (id, tenant_id, slug, version, target, inputs, work_ref, status, step, phase,
                       assignee) VALUES (?, ?, ?, ?, ?, ?, ?, 'in_progress', 0, 'pending', ?)""", id, tenant,
                slug, version, target.orElse(null), Jdbc.jsonb(inputs), workRef, assignee);
    }

    static void log(Connection c, UUID tenant, UUID run, int step, String action, Optional<String> outcome,
                    Map<String, ?> detail, String actor) throws SQLException {
        Jdbc.update(c, """
                INSERT INTO runbook_run_log (run_id, seq, tenant_id, step, action, outcome, detail, actor)
                VALUES (?, (SELECT coalesce(max(seq), 0) + 1 FROM runbook_run_log WHERE run_id = ?), ?, ?, ?, ?, ?, ?)""",
                run, run, tenant, step, action, outcome.orElse(null), Jdbc.jsonb(detail), actor);
    }

    /** The step's operation is claimed: called after this commit. */
    static void claim(Connection c, UUID run) throws SQLException {
        Jdbc.update(c, "UPDATE runbook_runs SET phase = 'executing', updated_at = now() WHERE id = ?", run);
    }

    /**
     * The claimed call parked for approval: the step is pending again, waiting for {@code approval}; the run
     * awaits the approval unless it ended meanwhile (an abort keeps its status).
     */
    static void parked(Connection c, UUID run, UUID approval, Map<String, Object> result) throws SQLException {
        Jdbc.update(c, "UPDATE runbook_runs SET status = CASE WHEN status = 'in_progress' THEN 'awaiting_approval' "
                + "ELSE status END, phase = 'pending', approval_id = ?, last_result = ?, updated_at = now() "
                + "WHERE id = ? AND phase = 'executing'", approval, Jdbc.jsonb(result), run);
    }

    /** The claimed call answered: its outcome is the step's result. */
    static void answered(Connection c, UUID run, Map<String, Object> result) throws SQLException {
        Jdbc.update(c, "UPDATE runbook_runs SET phase = 'executed', last_result = ?, updated_at = now() "
                + "WHERE id = ? AND phase = 'executing'", Jdbc.jsonb(result), run);
    }

    /** The step counts as executed with {@code result}, whatever its phase was. */
    static void executed(Connection c, UUID run, Map<String, Object> result) throws SQLException {
        Jdbc.update(c, "UPDATE runbook_runs SET phase = 'executed', last_result = ?, updated_at = now() WHERE id = ?",
                Jdbc.jsonb(result), run);
    }

    /** An approver's release ran the parked call: the run is in progress again, the step executed. */
    static void approvedAndRun(Connection c, UUID run, Map<String, Object> result) throws SQLException {
        Jdbc.update(c, "UPDATE runbook_runs SET status = 'in_progress', phase = 'executed', last_result = ?, "
                + "updated_at = now() WHERE id = ?", Jdbc.jsonb(result), run);
    }

    static void escalate(Connection c, UUID run, String by, String reason) throws SQLException {
        Jdbc.update(c, "UPDATE runbook_runs SET status = 'escalated', escalated_by = ?, reason = ?, "
                + "updated_at = now() WHERE id = ?", by, reason, run);
    }

    /** Back in progress on the same step (an escalation resolved before the step's operation ran). */
    static void resume(Connection c, UUID run) throws SQLException {
        Jdbc.update(c, "UPDATE runbook_runs SET status = 'in_progress', reason = NULL, updated_at = now() WHERE id = ?",
                run);
    }

    /** In progress at {@code step}, nothing of it run yet. */
    static void moveTo(Connection c, UUID run, int step) throws SQLException {
        Jdbc.update(c, "UPDATE runbook_runs SET status = 'in_progress', step = ?, phase = 'pending', approval_id = NULL, "
                + "last_result = NULL, reason = NULL, updated_at = now() WHERE id = ?", step, run);
    }

    static void complete(Connection c, UUID run) throws SQLException {
        Jdbc.update(c, "UPDATE runbook_runs SET status = 'completed', phase = 'executed', reason = NULL, "
                + "approval_id = NULL, updated_at = now(), finished_at = now() WHERE id = ?", run);
    }

    /** The run ends {@code status} (stopped or aborted) with {@code reason}. */
    static void finish(Connection c, UUID run, Status status, String reason) throws SQLException {
        Jdbc.update(c, "UPDATE runbook_runs SET status = ?, reason = ?, updated_at = now(), finished_at = now() "
                + "WHERE id = ?", status.wire(), reason, run);
    }
}
