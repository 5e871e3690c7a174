package dev.backplane.kernel.targets;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.util.JsonMapping;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.postgresql.util.PGobject;

/** SQL for the target registry; every statement is scoped by tenant. */
final class TargetStore {

    /** A stored target, all fields; {@code port} null means the product default. */
    record Row(UUID id, String name, List<String> aliases, String product, String host, Integer port, String fqdn,
               String secretRef, String authModel, boolean vpnRequired, String notes, String preferredImplId,
               boolean verifyTls, String tlsCaPin, String tlsServerName, Map<String, Object> extras, String version,
               Map<String, Object> fingerprint, Instant createdAt, Instant updatedAt) {
    }

    private static final String COLUMNS = """
            t.id, t.name, t.product, t.host, t.port, t.fqdn, t.secret_ref, t.auth_model, t.vpn_required, t.notes,
            t.preferred_impl_id, t.verify_tls, t.tls_ca_pin, t.tls_server_name, t.extras::text AS extras,
            t.version, t.fingerprint::text AS fingerprint, t.created_at, t.updated_at,
            COALESCE((SELECT array_agg(a.alias ORDER BY a.alias) FROM targets_aliases a WHERE a.target_id = t.id),
                     '{}') AS aliases""";

    private final Jdbc jdbc;

    TargetStore(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    /** Runs {@code body} in one transaction (the tenant lock, the checks and the writes of one change). */
    <T> T inTransaction(Jdbc.TxBody<T> body) {
        return jdbc.inTransaction(body);
    }

    /** Serializes writers of one tenant so that name and alias checks hold until commit. */
    static void lockTenant(Connection c, UUID tenant) throws SQLException {
        Jdbc.query(c, "SELECT pg_advisory_xact_lock(hashtextextended(?, 7))", rs -> null, "targets:" + tenant);
    }

    Optional<Row> find(UUID tenant, String nameOrAlias) {
        return jdbc.inTransaction(c -> find(c, tenant, nameOrAlias));
    }

    static Optional<Row> find(Connection c, UUID tenant, String nameOrAlias) throws SQLException {
        List<Row> rows = Jdbc.query(c, "SELECT " + COLUMNS + """
                 FROM targets_targets t
                WHERE t.tenant_id = ? AND (t.name = ? OR t.id = (SELECT a.target_id FROM targets_aliases a
                                                                 WHERE a.tenant_id = ? AND a.alias = ?))""",
                TargetStore::row, tenant, nameOrAlias, tenant, nameOrAlias);
        return rows.stream().findFirst();
    }

    /** Names and aliases in use by targets other than {@code except}. */
    static List<String> taken(Connection c, UUID tenant, List<String> names, UUID except) throws SQLException {
        List<String> out = new ArrayList<>();
        for (String n : names) {
            boolean used = !Jdbc.query(c, """
                    SELECT 1 FROM targets_targets WHERE tenant_id = ? AND name = ? AND id <> ?
                    UNION ALL
                    SELECT 1 FROM targets_aliases WHERE tenant_id = ? AND alias = ? AND target_id <> ?""",
                    rs -> true, tenant, n, except, tenant, n, except).isEmpty();
            if (used) {
                out.add(n);
            }
        }
        return out;
    }

    /** The row's name and aliases that targets other than it already use. */
    static List<String> takenBy(Connection c, UUID tenant, Row row) throws SQLException {
        List<String> wanted = new ArrayList<>();
        wanted.add(row.name());
        wanted.addAll(row.aliases());
        return taken(c, tenant, wanted, row.id());
    }

    List<Row> list(UUID tenant, Optional<String> afterName, int limit, Optional<String> product) {
        return jdbc.query("SELECT " + COLUMNS + """
                 FROM targets_targets t
                WHERE t.tenant_id = ? AND (?::text IS NULL OR t.name > ?) AND (?::text IS NULL OR t.product = ?)
                ORDER BY t.name LIMIT ?""", TargetStore::row, tenant, afterName.orElse(null), afterName.orElse(null),
                product.orElse(null), product.orElse(null), limit);
    }

    static void insert(Connection c, UUID tenant, Row r, String actor) throws SQLException {
        Jdbc.update(c, """
                INSERT INTO targets_targets (id, tenant_id, name, product, host, port, fqdn, secret_ref, auth_model,
                       vpn_required, notes, preferred_impl_id, verify_tls, tls_ca_pin, tls_server_name, extras, version,
                       created_by, updated_by)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
                r.id(), tenant, r.name(), r.product(), r.host(), r.port(), r.fqdn(), r.secretRef(), r.authModel(),
                r.vpnRequired(), r.notes(), r.preferredImplId(), r.verifyTls(), r.tlsCaPin(), r.tlsServerName(),
                jsonb(r.extras()), r.version(), actor, actor);
        replaceAliases(c, tenant, r.id(), r.aliases());
    }

    static void update(Connection c, UUID tenant, Row r, String actor) throws SQLException {
        Jdbc.update(c, """
                UPDATE targets_targets SET name = ?, product = ?, host = ?, port = ?, fqdn = ?, secret_ref = ?,
                       auth_model = ?, vpn_required = ?, notes = ?, preferred_impl_id = ?, verify_tls = ?, tls_ca_pin = ?,
                       tls_server_name = ?, extras = ?, version = ?, updated_at = now(), updated_by = ?
                 WHERE tenant_id = ? AND id = ?""",
                r.name(), r.product(), r.host(), r.port(), r.fqdn(), r.secretRef(), r.authModel(), r.vpnRequired(),
                r.notes(), r.preferredImplId(), r.verifyTls(), r.tlsCaPin(), r.tlsServerName(), jsonb(r.extras()),
                r.version(), actor, tenant, r.id());
        replaceAliases(c, tenant, r.id(), r.aliases());
    }

    void saveFingerprint(UUID tenant, UUID id, Map<String, Object> fingerprint) {
        jdbc.inTransaction(c -> {
            Jdbc.update(c, "UPDATE targets_targets SET fingerprint = ? WHERE tenant_id = ? AND id = ?",
                    jsonb(fingerprint), tenant, id);
            return null;
        });
    }

    boolean delete(UUID tenant, UUID id) {
        return jdbc.update("DELETE FROM targets_targets WHERE tenant_id = ? AND id = ?", tenant, id) == 1;
    }

    private static void replaceAliases(Connection c, UUID tenant, UUID id, List<String> aliases) throws SQLException {
        Jdbc.update(c, "DELETE FROM targets_aliases WHERE tenant_id = ? AND target_id = ?", tenant, id);
        for (String a : aliases) {
            Jdbc.update(c, "INSERT INTO targets_aliases (tenant_id, alias, target_id) VALUES (?, ?, ?)", tenant, a, id);
        }
    }

    private static PGobject jsonb(Map<String, Object> value) throws SQLException {
        PGobject o = new PGobject();
        o.setType("jsonb");
        o.setValue(JsonMapping.write(value));
        return o;
    }

    private static Row row(ResultSet rs) throws SQLException {
        Integer port = (Integer) rs.getObject("port");
        String[] aliases = (String[]) rs.getArray("aliases").getArray();
        return new Row(rs.getObject("id", UUID.class), rs.getString("name"), List.of(aliases), rs.getString("product"),
                rs.getString("host"), port, rs.getString("fqdn"), rs.getString("secret_ref"), rs.getString("auth_model"),
                rs.getBoolean("vpn_required"), rs.getString("notes"), rs.getString("preferred_impl_id"),
                rs.getBoolean("verify_tls"), rs.getString("tls_ca_pin"), rs.getString("tls_server_name"),
                map(rs.getString("extras")), rs.getString("version"), map(rs.getString("fingerprint")),
                rs.getTimestamp("created_at").toInstant(), rs.getTimestamp("updated_at").toInstant());
    }

    private static Map<String, Object> map(String json) {
        if (json == null) {
            return null;
        }
        try {
            return JsonMapping.mapper().readValue(json, new TypeReference<LinkedHashMap<String, Object>>() { });
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored JSON is unreadable", e);
        }
    }
}
