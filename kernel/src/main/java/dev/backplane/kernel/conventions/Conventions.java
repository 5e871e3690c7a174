package dev.backplane.kernel.conventions;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.retrieval.Candidates;
import dev.backplane.kernel.retrieval.RetrievalEngine;
import dev.backplane.kernel.retrieval.SearchLog;
import dev.backplane.kernel.util.Paging;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
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
import java.util.regex.Pattern;

/**
 * A tenant's conventions: create, edit (partial; every change a new version), delete, list, show, history
 * with diffs; workflow and reference conventions searched on the hybrid retrieval engine (surface
 * {@value #SURFACE}); operational ones packed into agents' instructions ({@link #instructions}).
 */
public final class Conventions {

    public static final String SURFACE = "conventions";
    public static final List<String> KINDS = List.of(Convention.OPERATIONAL, Convention.WORKFLOW, Convention.REFERENCE);
    static final Pattern SLUG = Pattern.compile("[a-z0-9][a-z0-9-]{0,127}");
    static final int MAX_TITLE_CHARS = 200;
    public static final int MAX_BODY_BYTES = 64 * 1024;
    public static final Paging.Size PAGE = new Paging.Size(100, 500);
    public static final int HISTORY_DEFAULT = 20;
    public static final int SEARCH_MAX = 50;
    /** At most this many operational conventions are considered for packing (far more than any budget holds). */
    static final int MAX_PACKED_CANDIDATES = 1000;

    private static final System.Logger LOG = System.getLogger(Conventions.class.getName());

    /** A create or a (partial) edit; {@code expected_version} makes an edit fail if someone else changed it first. */
    public record Write(String slug, String title, String kind, JsonNode priority, String body, Integer expectedVersion) {
    }

    /** A convention in a list: everything but the body. */
    public record Summary(String slug, String title, String kind, int priority, int version, Instant updatedAt,
                          String updatedBy) {
    }

    /** A field of a version that differs from the version before. */
    public record Change(String field, Object from, Object to) {
    }

    /** One version in a history: who, when, the fields it changed and its body's diff against the version before. */
    public record Version(int version, String changedBy, Instant changedAt, String title, String kind, int priority,
                          List<Change> changes, String bodyDiff) {
    }

    /** A search hit: never the full body. */
    public record Hit(String slug, String title, String kind, int priority, String snippet, double score) {
    }

    private final Jdbc jdbc;
    private final RetrievalEngine engine;
    private final int tokenBudget;

    public Conventions(Jdbc jdbc, RetrievalEngine engine, int tokenBudget) {
        this.jdbc = jdbc;
        this.engine = engine;
        this.tokenBudget = tokenBudget;
    }

    public Convention create(Caller caller, Write w) {
        if (w.slug() == null || !SLUG.matcher(w.slug()).matches()) {
            throw CommonErrors.INVALID_SLUG.error("slug must be 1-128 lower-case ASCII letters, digits or '-', "
                    + "starting with a letter or digit", Map.of("field", "slug"));
        }
        if (w.expectedVersion() != null) {
            throw invalid("expected_version", "expected_version only goes with an edit");
        }
        String title = title(required(w.title(), "title"));
        String kind = kind(required(w.kind(), "kind"));
        int priority = w.priority() == null ? 0 : priority(w.priority());
        String body = body(required(w.body(), "body"));
        UUID id = UUID.randomUUID();
        Optional<RetrievalEngine.Prepared> prepared = KINDS.indexOf(kind) > 0
                ? Optional.of(engine.prepare(indexText(w.slug(), title, body))) : Optional.empty();
        boolean inserted = jdbc.inTransaction(c -> {
            if (Jdbc.update(c, """
                    INSERT INTO conventions (id, tenant_id, slug, title, kind, priority, body, version, created_by,
                                             updated_by)
                    VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?) ON CONFLICT (tenant_id, slug) DO NOTHING""", id, caller.tenantId(),
                    w.slug(), title, kind, priority, body, caller.sub(), caller.sub()) == 0) {
                return false;
            }
            version(c, id, 1, title, kind, priority, body, caller.sub());
            if (prepared.isPresent()) {
                engine.indexIn(c, caller.tenantId(), SURFACE, id, prepared.get());
            }
            return true;
        });
        if (!inserted) {
            throw ConventionErrors.CONVENTION_EXISTS.error("convention '" + w.slug() + "' already exists (svc "
                    + "conventions edit changes it)", Map.of("slug", w.slug()));
        }
        prepared.ifPresent(p -> engine.indexed(caller.tenantId(), SURFACE, id));
        return show(caller.tenantId(), w.slug());
    }

    /** Changes the fields given; a write that changes nothing answers the convention as it is (no new version). */
    public Convention edit(Caller caller, String slug, Write w) {
        Convention before = show(caller.tenantId(), slug);
        if (w.slug() != null && !w.slug().equals(slug)) {
            throw invalid("slug", "a convention cannot be renamed; create a new one and delete this one");
        }
        if (w.title() == null && w.kind() == null && w.priority() == null && w.body() == null) {
            throw invalid("body", "nothing to change: give title, kind, priority or body");
        }
        String title = w.title() == null ? before.title() : title(w.title());
        String kind = w.kind() == null ? before.kind() : kind(w.kind());
        int priority = w.priority() == null ? before.priority() : priority(w.priority());
        String body = w.body() == null ? before.body() : body(w.body());
        if (w.expectedVersion() != null && w.expectedVersion() != before.version()) {
            throw conflict(slug, w.expectedVersion(), before.version());
        }
        if (title.equals(before.title()) && kind.equals(before.kind()) && priority == before.priority()
                && body.equals(before.body())) {
            return before;
        }
        boolean searchable = KINDS.indexOf(kind) > 0;
        Optional<RetrievalEngine.Prepared> prepared = searchable ? Optional.of(engine.prepare(indexText(slug, title, body)))
                : Optional.empty();
        int next = before.version() + 1;
        boolean updated = jdbc.inTransaction(c -> {
            // the version check makes two concurrent edits of one version one success and one conflict
            if (Jdbc.update(c, """
                    UPDATE conventions SET title = ?, kind = ?, priority = ?, body = ?, version = ?, updated_at = now(),
                           updated_by = ?
                    WHERE id = ? AND version = ?""", title, kind, priority, body, next, caller.sub(), before.id(),
                    before.version()) == 0) {
                return false;
            }
            version(c, before.id(), next, title, kind, priority, body, caller.sub());
            // the index follows the row in the same transaction: never rows of an operational one, never none
            // of a searchable one, whatever edits run beside this one
            if (prepared.isPresent()) {
                engine.indexIn(c, caller.tenantId(), SURFACE, before.id(), prepared.get());
            } else {
                engine.unindexIn(c, SURFACE, before.id());
            }
            return true;
        });
        if (!updated) {
            throw conflict(slug, before.version(), show(caller.tenantId(), slug).version());
        }
        engine.indexed(caller.tenantId(), SURFACE, before.id());
        return show(caller.tenantId(), slug);
    }

    /** Deletes the convention and its versions; the governance audit trail keeps every write. */
    public void delete(Caller caller, String slug) {
        Convention c = show(caller.tenantId(), slug);
        jdbc.inTransaction(tx -> {
            Jdbc.update(tx, "DELETE FROM conventions WHERE id = ?", c.id());
            engine.unindexIn(tx, SURFACE, c.id()); // always: a concurrent edit may have made it searchable
            return null;
        });
        engine.indexed(caller.tenantId(), SURFACE, c.id());
    }

    public Convention show(UUID tenant, String slug) {
        return jdbc.queryOne("SELECT * FROM conventions WHERE tenant_id = ? AND slug = ?", Conventions::row, tenant, slug)
                .orElseThrow(() -> ConventionErrors.CONVENTION_NOT_FOUND.error("no convention '" + slug + "' in this "
                        + "tenant (svc conventions list shows them)", Map.of("slug", String.valueOf(slug))));
    }

    /** Highest priority first, then by slug. */
    public List<Summary> list(UUID tenant, Optional<String> kind, int limit, int offset) {
        Paging page = PAGE.checked(limit, offset);
        kind.ifPresent(Conventions::kind);
        return jdbc.query("""
                SELECT * FROM conventions WHERE tenant_id = ? AND (CAST(? AS text) IS NULL OR kind = ?)
                ORDER BY priority DESC, slug LIMIT ? OFFSET ?""", rs -> {
                    Convention c = row(rs);
                    return new Summary(c.slug(), c.title(), c.kind(), c.priority(), c.version(), c.updatedAt(),
                            c.updatedBy());
                }, tenant, kind.orElse(null), kind.orElse(null), page.limit(), page.offset());
    }

    /** The newest {@code limit} versions, newest first, each with its changes against the version before. */
    public List<Version> history(UUID tenant, String slug, int limit) {
        if (limit < 1 || limit > PAGE.max()) {
            throw CommonErrors.INVALID_LIMIT.error("limit must be 1.." + PAGE.max(), Map.of("field", "limit"));
        }
        Convention c = show(tenant, slug);
        record Row(int version, String title, String kind, int priority, String body, String by, Instant at) {
        }
        List<Row> rows = jdbc.query("""
                SELECT * FROM convention_versions WHERE convention_id = ? ORDER BY version DESC LIMIT ?""",
                rs -> new Row(rs.getInt("version"), rs.getString("title"), rs.getString("kind"), rs.getInt("priority"),
                        rs.getString("body"), rs.getString("changed_by"), rs.getTimestamp("changed_at").toInstant()),
                c.id(), limit + 1);
        List<Version> out = new ArrayList<>();
        for (int i = 0; i < Math.min(limit, rows.size()); i++) {
            Row v = rows.get(i);
            Optional<Row> prev = i + 1 < rows.size() ? Optional.of(rows.get(i + 1)) : Optional.empty();
            List<Change> changes = new ArrayList<>();
            if (prev.isEmpty()) {
                changes.add(new Change("created", null, v.version()));
            } else {
                Row p = prev.get();
                if (!p.title().equals(v.title())) {
                    changes.add(new Change("title", p.title(), v.title()));
                }
                if (!p.kind().equals(v.kind())) {
                    changes.add(new Change("kind", p.kind(), v.kind()));
                }
                if (p.priority() != v.priority()) {
                    changes.add(new Change("priority", p.priority(), v.priority()));
                }
                if (!p.body().equals(v.body())) {
                    changes.add(new Change("body", null, null));
                }
            }
            String from = prev.map(p -> "a/" + slug + " (version " + p.version() + ")").orElse("/dev/null");
            String diff = LineDiff.unified(prev.map(Row::body).orElse(""), v.body(), from, "b/" + slug + " (version "
                    + v.version() + ")");
            out.add(new Version(v.version(), v.by(), v.at(), v.title(), v.kind(), v.priority(), List.copyOf(changes),
                    diff));
        }
        return out;
    }

    /** A search an operator or agent makes over workflow and reference conventions, recorded for usage. */
    public List<Hit> search(Caller caller, SearchLog.Transport via, String query, Optional<String> kind, int limit) {
        return engine.searches().record(caller, SearchLog.Surface.CONVENTIONS, via, query,
                () -> search(caller.tenantId(), query, kind, limit), List::size);
    }

    /** A search that is not recorded (the retrieval eval's own). */
    public List<Hit> search(UUID tenant, String query, Optional<String> kind, int limit) {
        RetrievalEngine.requireQuery(query);
        if (limit < 1 || limit > SEARCH_MAX) {
            throw CommonErrors.INVALID_LIMIT.error("limit must be 1.." + SEARCH_MAX, Map.of("field", "limit"));
        }
        if (kind.isPresent() && !List.of(Convention.WORKFLOW, Convention.REFERENCE).contains(kind.get())) {
            throw invalid("kind", "search covers workflow and reference conventions; kind must be one of those "
                    + "(operational ones reach agents in their instructions)");
        }
        Candidates candidates = kind.<Candidates>map(k -> Candidates.only(new java.util.HashSet<>(jdbc.query(
                "SELECT id FROM conventions WHERE tenant_id = ? AND kind = ?", rs -> rs.getObject(1, UUID.class), tenant,
                k)))).orElse(Candidates.all());
        if (candidates instanceof Candidates.Only only && only.ids().isEmpty()) {
            return List.of();
        }
        List<RetrievalEngine.Hit> hits = engine.search(tenant, SURFACE, query, limit, RetrievalEngine.Mode.HYBRID,
                candidates);
        Map<UUID, Convention> byId = new LinkedHashMap<>();
        jdbc.query("SELECT * FROM conventions WHERE tenant_id = ? AND id = ANY (?) AND kind <> 'operational'",
                Conventions::row, tenant, hits.stream().map(RetrievalEngine.Hit::entryId).toArray(UUID[]::new))
                .forEach(c -> byId.put(c.id(), c));
        return hits.stream().filter(h -> byId.containsKey(h.entryId())).map(h -> {
            Convention c = byId.get(h.entryId());
            return new Hit(c.slug(), c.title(), c.kind(), c.priority(), snippet(c.body()),
                    Math.round(h.score() * 1e6) / 1e6);
        }).toList();
    }

    /** The workflow and reference conventions of a tenant, oldest first, at most {@code max} (the eval's corpus). */
    public List<Convention> searchable(UUID tenant, int max) {
        return jdbc.query("SELECT * FROM conventions WHERE tenant_id = ? AND kind <> 'operational' ORDER BY created_at, "
                + "id LIMIT ?", Conventions::row, tenant, max);
    }

    /**
     * The tenant's operational conventions packed for an agent's instructions within the
     * {@code conventions.mcp-token-budget} (see {@link ConventionPacker}); what did not fit is logged in one line.
     */
    public String instructions(UUID tenant) {
        if (tokenBudget <= 0) {
            return ""; // packing is off: no query, no log line
        }
        // an entry longer than the whole budget can never be packed: left in the database (estimate chars/4)
        List<Convention> operational = jdbc.query("""
                SELECT * FROM conventions WHERE tenant_id = ? AND kind = 'operational' AND length(body) <= ?
                ORDER BY priority DESC, created_at, slug LIMIT ?""", Conventions::row, tenant, (long) tokenBudget * 4,
                MAX_PACKED_CANDIDATES);
        ConventionPacker.Packed packed = ConventionPacker.pack(operational, tokenBudget);
        if (!packed.dropped().isEmpty()) {
            LOG.log(Level.INFO, "conventions: tenant " + tenant + ": " + packed.dropped().size() + " operational "
                    + "convention(s) dropped over the token budget of " + tokenBudget + " (estimate chars/4; "
                    + packed.used() + " used by " + packed.included().size() + " included): " + String.join(", ",
                    packed.dropped()));
        }
        return packed.text();
    }

    private static void version(Connection c, UUID id, int version, String title, String kind, int priority, String body,
                                String by) throws SQLException {
        Jdbc.update(c, """
                INSERT INTO convention_versions (convention_id, version, title, kind, priority, body, changed_by)
                VALUES (?, ?, ?, ?, ?, ?, ?)""", id, version, title, kind, priority, body, by);
    }

    private static String indexText(String slug, String title, String body) {
        return title + "\n" + slug.replace('-', ' ') + "\n" + body;
    }

    private static String required(String value, String field) {
        if (value == null) {
            throw invalid(field, field + " is required");
        }
        return value;
    }

    private static String title(String title) {
        if (title.isBlank() || title.length() > MAX_TITLE_CHARS || title.chars().anyMatch(ch -> ch < 0x20 || ch == 0x7f)) {
            throw invalid("title", "title must be one line of 1-" + MAX_TITLE_CHARS + " characters without control "
                    + "characters");
        }
        return title.strip();
    }

    static String kind(String kind) {
        if (!KINDS.contains(kind)) {
            throw ConventionErrors.INVALID_CONVENTION.error("kind must be one of " + KINDS + ", got '" + kind + "'",
                    Map.of("field", "kind", "valid_kinds", KINDS));
        }
        return kind;
    }

    private static int priority(JsonNode p) {
        if (!p.isIntegralNumber() || !p.canConvertToInt() || p.asInt() < Short.MIN_VALUE || p.asInt() > Short.MAX_VALUE) {
            throw invalid("priority", "priority must be an integer from " + Short.MIN_VALUE + " to " + Short.MAX_VALUE);
        }
        return p.asInt();
    }

    private static String body(String body) {
        if (body.isBlank()) {
            throw invalid("body", "body is empty");
        }
        if (body.getBytes(StandardCharsets.UTF_8).length > MAX_BODY_BYTES) {
            throw ConventionErrors.INVALID_CONVENTION.error("body exceeds " + MAX_BODY_BYTES + " bytes (UTF-8)",
                    Map.of("field", "body", "max_bytes", MAX_BODY_BYTES));
        }
        return body;
    }

    private static dev.backplane.kernel.errors.DomainException invalid(String field, String message) {
        return ConventionErrors.INVALID_CONVENTION.error(message, Map.of("field", field));
    }

    private static dev.backplane.kernel.errors.DomainException conflict(String slug, int expected, int current) {
        return ConventionErrors.VERSION_CONFLICT.error("convention '" + slug + "' is at version " + current + ", not "
                + expected + ": someone changed it meanwhile; look again and retry",
                Map.of("expected_version", expected, "current_version", current));
    }

    static String snippet(String body) {
        String flat = body.replaceAll("\\s+", " ").strip();
        return flat.length() <= 200 ? flat : flat.substring(0, 197) + "...";
    }

    private static Convention row(ResultSet rs) throws SQLException {
        return new Convention(rs.getObject("id", UUID.class), rs.getString("slug"), rs.getString("title"),
                rs.getString("kind"), rs.getInt("priority"), rs.getString("body"), rs.getInt("version"),
                rs.getTimestamp("created_at").toInstant(), rs.getString("created_by"),
                rs.getTimestamp("updated_at").toInstant(), rs.getString("updated_by"));
    }
}
