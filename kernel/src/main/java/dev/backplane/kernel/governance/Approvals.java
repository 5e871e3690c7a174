package dev.backplane.kernel.governance;

import dev.backplane.kernel.http.Json;
import dev.backplane.kernel.persistence.Jdbc;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.postgresql.util.PGobject;

/**
 * Durable approval requests: a call whose operation requires approval is parked here, whoever made
 * it, with the resolved request shown to approvers. (Approve, reject, expiry and the four-eyes rule
 * build on this store.)
 */
public final class Approvals {

    /** What a parked call needs to run later and what approvers are shown. */
    public record Parked(UUID tenantId, String requester, String connectorId, String opId, String target,
                         UUID targetId, Map<String, Object> params, Map<String, Object> resolved,
                         Optional<String> workRef, UUID auditId) {
    }

    private final Jdbc jdbc;
    private final Duration ttl;

    public Approvals(Jdbc jdbc, Duration ttl) {
        this.jdbc = jdbc;
        this.ttl = ttl;
    }

    public UUID park(Parked p) {
        UUID id = UUID.randomUUID();
        jdbc.inTransaction(c -> Jdbc.update(c, """
                INSERT INTO governance_approvals (id, tenant_id, status, requester, connector_id, op_id, target, target_id,
                       params, resolved, work_ref, audit_id, expires_at)
                VALUES (?, ?, 'pending', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
                id, p.tenantId(), p.requester(), p.connectorId(), p.opId(), p.target(), p.targetId(), jsonb(p.params()),
                jsonb(p.resolved()), p.workRef().orElse(null), p.auditId(), Timestamp.from(Instant.now().plus(ttl))));
        return id;
    }

    private static PGobject jsonb(Object value) throws java.sql.SQLException {
        PGobject o = new PGobject();
        o.setType("jsonb");
        o.setValue(Json.write(value));
        return o;
    }
}
