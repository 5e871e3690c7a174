package dev.backplane.kernel.conventions;

import java.time.Instant;
import java.util.List;

/** One version in a convention's history: who, when, the fields it changed and its body's diff against the one before. */
public record ConventionVersion(int version, String changedBy, Instant changedAt, String title, String kind,
                                int priority, List<Change> changes, String bodyDiff) {

    /** A field of a version that differs from the version before. */
    public record Change(String field, Object from, Object to) {
    }
}
