package dev.backplane.kernel.runbooks;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
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

    /**
     * A version's status and its moves: a draft is published, a published version deprecated; nothing
     * else moves (a published version never changes back, a deprecated one stays retired).
     */
    enum Status {
        DRAFT(RunbookTemplate.DRAFT),
        PUBLISHED(RunbookTemplate.PUBLISHED),
        DEPRECATED(RunbookTemplate.DEPRECATED);

        private final String wire;

        Status(String wire) {
            this.wire = wire;
        }

        /** The name in JSON and in the {@code status} column. */
        String wire() {
            return wire;
        }

        boolean canMoveTo(Status next) {
            return switch (this) {
                case DRAFT -> next == PUBLISHED;
                case PUBLISHED -> next == DEPRECATED;
                case DEPRECATED -> false;
            };
        }

        static Optional<Status> parse(String wire) {
            return Arrays.stream(values()).filter(s -> s.wire.equals(wire)).findFirst();
        }

        /** Every wire name, in the order a version moves through them. */
        static List<String> wireNames() {
            return Arrays.stream(values()).map(Status::wire).toList();
        }
    }

    /** This version's status. */
    @JsonIgnore
    Status state() {
        return Status.parse(status).orElseThrow(() -> new IllegalStateException("no template status '" + status + "'"));
    }

    /** The steps of the definition. */
    @JsonIgnore
    JsonNode stepList() {
        return definition.path("steps");
    }
}
