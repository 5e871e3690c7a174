package dev.backplane.kernel.agents;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Text from outside the backplane (an event sender's body, a target's answer) put into a model prompt
 * as one block the text cannot leave. The block opens with {@code <<<LABEL <boundary>} and closes with
 * {@code LABEL <boundary>>>>}, where the boundary is 128 random bits drawn for this block alone, so the
 * text cannot know, and therefore cannot write, the closing marker. Belt and braces, every run of three
 * or more {@code <} or {@code >} in the text is cut to two, so nothing inside even looks like a marker;
 * the text is bounded too. Whatever stands outside the block is the caller's and must be
 * server-controlled (ids, times, enum values, an administrator's configuration).
 */
public final class UntrustedText {

    private static final Pattern LABEL = Pattern.compile("[A-Z][A-Z ]{0,39}");
    private static final Pattern MARKER_RUNS = Pattern.compile("<{3,}|>{3,}");
    private static final SecureRandom RANDOM = new SecureRandom();
    static final String TRUNCATED = "...(truncated)";

    private UntrustedText() {
    }

    /**
     * The block holding {@code text}: at most {@code maxChars} of it (then {@link #TRUNCATED}), marker-like
     * runs cut, between markers carrying a fresh random boundary.
     *
     * @param label what the block holds, in capitals ({@code UNTRUSTED EVENT}); a constant of the caller
     */
    public static String wrap(String label, String text, int maxChars) {
        if (!LABEL.matcher(label).matches()) {
            throw new IllegalArgumentException("a block label is 1-40 capital letters and spaces");
        }
        if (maxChars < 1) {
            throw new IllegalArgumentException("maxChars must be positive");
        }
        String boundary = boundary();
        return "<<<" + label + " " + boundary + "\n" + neutralised(Objects.requireNonNullElse(text, ""), maxChars)
                + "\n" + label + " " + boundary + ">>>";
    }

    /** The text bounded to maxChars (never splitting a surrogate pair) with marker-like runs cut to two. */
    static String neutralised(String text, int maxChars) {
        String cut = MARKER_RUNS.matcher(text).replaceAll(r -> r.group().substring(0, 2));
        if (cut.length() <= maxChars) {
            return cut;
        }
        int end = Character.isHighSurrogate(cut.charAt(maxChars - 1)) ? maxChars - 1 : maxChars;
        return cut.substring(0, end) + TRUNCATED;
    }

    private static String boundary() {
        byte[] b = new byte[16];
        RANDOM.nextBytes(b);
        return HexFormat.of().formatHex(b);
    }
}
