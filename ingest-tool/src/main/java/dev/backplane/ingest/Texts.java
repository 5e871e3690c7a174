package dev.backplane.ingest;

/** Text shown to operators and agents: whitespace collapsed, length bounded. */
final class Texts {

    private Texts() {
    }

    static String collapse(String text) {
        if (text == null) {
            return "";
        }
        StringBuilder out = new StringBuilder(text.length());
        boolean space = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isWhitespace(c)) {
                space = !out.isEmpty();
                continue;
            }
            if (space) {
                out.append(' ');
                space = false;
            }
            out.append(c);
        }
        return out.toString();
    }

    /** Collapsed and cut to {@code max} characters (the last three being "..." when cut). */
    static String bounded(String text, int max) {
        String collapsed = collapse(text);
        return collapsed.length() <= max ? collapsed : collapsed.substring(0, max - 3).stripTrailing() + "...";
    }
}
