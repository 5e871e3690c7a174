package dev.backplane.kernel.conventions;

import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;

/**
 * Packs a tenant's operational conventions into an agent's instructions within a token budget. Entries
 * are taken highest priority first (ties: the older first, then by slug); each is included whole if it
 * still fits in what is left of the budget, else dropped whole — never cut mid-sentence. A lower-priority
 * entry that fits after a bigger one was dropped is still included: it takes nothing the dropped one could
 * have used. Tokens are estimated as characters / 4, rounded up (no tokenizer: models differ, and the
 * estimate errs on the generous side for English prose); the budget covers the whole section, heading
 * included.
 */
public final class ConventionPacker {

    static final String HEADING = "Conventions of this tenant (operational; follow them):\n";

    /** What was packed: the section (empty when nothing fits or there is nothing), and which slugs made it. */
    public record Packed(String text, List<String> included, List<String> dropped, int budget, int used) {
    }

    /** At most this many operational conventions are considered for packing (far more than any budget holds). */
    static final int MAX_PACKED_CANDIDATES = 1000;

    private static final System.Logger LOG = System.getLogger(Conventions.class.getName());

    private ConventionPacker() {
    }

    /**
     * The tenant's operational conventions packed within {@code tokenBudget} (0: packing is off, no query and no log
     * line); what did not fit is logged in one line.
     */
    static String instructions(ConventionStore store, UUID tenant, int tokenBudget) {
        if (tokenBudget <= 0) {
            return "";
        }
        // an entry longer than the whole budget can never be packed: left in the database (estimate chars/4)
        List<Convention> operational = store.operational(tenant, (long) tokenBudget * 4, MAX_PACKED_CANDIDATES);
        Packed packed = pack(operational, tokenBudget);
        if (!packed.dropped().isEmpty()) {
            LOG.log(Level.INFO, "conventions: tenant " + tenant + ": " + packed.dropped().size() + " operational "
                    + "convention(s) dropped over the token budget of " + tokenBudget + " (estimate chars/4; "
                    + packed.used() + " used by " + packed.included().size() + " included): " + String.join(", ",
                    packed.dropped()));
        }
        return packed.text();
    }

    /** The estimated tokens of a text: characters / 4, rounded up. */
    public static int tokens(String text) {
        return (text.length() + 3) / 4;
    }

    /** How one convention reads in the instructions. */
    static String render(Convention c) {
        return "\n## " + c.title() + " [" + c.slug() + "]\n" + c.body().strip() + "\n";
    }

    /** Orders {@code conventions} (any kinds; only operational ones are packed) and packs them. */
    public static Packed pack(List<Convention> conventions, int budget) {
        List<Convention> ordered = new ArrayList<>(conventions.stream()
                .filter(c -> c.kind().equals(Convention.OPERATIONAL)).toList());
        ordered.sort(Comparator.comparingInt(Convention::priority).reversed()
                .thenComparing(Convention::createdAt).thenComparing(Convention::slug));
        if (ordered.isEmpty()) {
            return new Packed("", List.of(), List.of(), budget, 0);
        }
        StringBuilder text = new StringBuilder(HEADING);
        int used = tokens(HEADING);
        List<String> included = new ArrayList<>();
        List<String> dropped = new ArrayList<>();
        for (Convention c : ordered) {
            String entry = render(c);
            // the cost of an entry is what it adds to the section's estimate, so the sum never passes the budget
            int after = tokens(text + entry);
            if (after <= budget) {
                text.append(entry);
                used = after;
                included.add(c.slug());
            } else {
                dropped.add(c.slug());
            }
        }
        if (included.isEmpty()) {
            return new Packed("", List.of(), dropped, budget, 0);
        }
        return new Packed(text.toString(), List.copyOf(included), List.copyOf(dropped), budget, used);
    }
}
