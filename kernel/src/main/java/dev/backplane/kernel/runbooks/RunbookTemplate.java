package dev.backplane.kernel.runbooks;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.persistence.Jdbc;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Optional;

/**
 * One version of a runbook template. A version is immutable once published; editing a published
 * template forks the next version as a draft.
 *
 * @param source the YAML as written
 * @param definition the YAML as validated JSON (title, description, target_kind, inputs, steps)
 */
public record RunbookTemplate(String slug, int version, String status, String title, Optional<String> targetKind,
                              int steps, String source, JsonNode definition, String createdBy, Instant createdAt,
                              String updatedBy, Instant updatedAt, Optional<String> publishedBy,
                              Optional<Instant> publishedAt, Optional<String> deprecatedBy,
                              Optional<Instant> deprecatedAt) {

    public static final String DRAFT = "draft";
    public static final String PUBLISHED = "published";
    public static final String DEPRECATED = "deprecated";

    /** The steps of the definition. */
    @JsonIgnore
    JsonNode stepList() {
        return definition.path("steps");
    }

    static RunbookTemplate read(ResultSet rs) throws SQLException {
        JsonNode definition = Jdbc.jsonTree(rs, "definition");
        return new RunbookTemplate(rs.getString("slug"), rs.getInt("version"), rs.getString("status"),
                rs.getString("title"), Optional.ofNullable(rs.getString("target_kind")), definition.path("steps").size(),
                rs.getString("source"), definition, rs.getString("created_by"), rs.getTimestamp("created_at").toInstant(),
                rs.getString("updated_by"), rs.getTimestamp("updated_at").toInstant(),
                Optional.ofNullable(rs.getString("published_by")), instant(rs, "published_at"),
                Optional.ofNullable(rs.getString("deprecated_by")), instant(rs, "deprecated_at"));
    }

    private static Optional<Instant> instant(ResultSet rs, String column) throws SQLException {
        Timestamp t = rs.getTimestamp(column);
        return t == null ? Optional.empty() : Optional.of(t.toInstant());
    }
}
