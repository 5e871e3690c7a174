package dev.backplane.kernel.catalog;

import java.util.List;

/** The resolver's answer: one implementation, none, or a true tie. */
public sealed interface Resolution {

    /**
     * One implementation serves the target.
     *
     * @param connectorId the chosen connector
     * @param reason why it won, for operators
     */
    record Resolved(String connectorId, String reason) implements Resolution {
    }

    /**
     * No implementation serves the product at that version ({@code no_connector}).
     *
     * @param message what was looked for and what exists
     */
    record NoConnector(String message) implements Resolution {
    }

    /**
     * Several implementations fit equally well ({@code ambiguous_connector}).
     *
     * @param candidates the tied connector ids
     */
    record Ambiguous(List<String> candidates) implements Resolution {
    }
}
