package dev.backplane.kernel.retrieval;

/**
 * Reads the text form of a PostgreSQL {@code tsvector}: space-separated lexemes in single quotes
 * (a quote inside doubled, a backslash escaping the next character), each optionally followed by
 * {@code :} and comma-separated positions with an optional weight letter ({@code 'run':1,5B 'fast'}).
 * A lexeme's term frequency is its number of positions (1 without positions; PostgreSQL keeps at most
 * 256 positions per lexeme).
 */
final class TsVectorText {

    @FunctionalInterface
    interface Sink {
        void lexeme(String lexeme, int tf);
    }

    private TsVectorText() {
    }

    static void parse(String text, Sink sink) {
        int i = 0;
        int n = text.length();
        StringBuilder lexeme = new StringBuilder();
        while (i < n) {
            while (i < n && text.charAt(i) == ' ') {
                i++;
            }
            if (i >= n) {
                return;
            }
            if (text.charAt(i) != '\'') {
                throw new IllegalArgumentException("not a tsvector at " + i + ": " + text);
            }
            i++;
            lexeme.setLength(0);
            while (i < n) {
                char ch = text.charAt(i);
                if (ch == '\\' && i + 1 < n) {
                    lexeme.append(text.charAt(i + 1));
                    i += 2;
                } else if (ch == '\'') {
                    if (i + 1 < n && text.charAt(i + 1) == '\'') {
                        lexeme.append('\'');
                        i += 2;
                    } else {
                        i++;
                        break;
                    }
                } else {
                    lexeme.append(ch);
                    i++;
                }
            }
            int tf = 1;
            if (i < n && text.charAt(i) == ':') {
                i++;
                while (i < n && text.charAt(i) != ' ') {
                    if (text.charAt(i) == ',') {
                        tf++;
                    }
                    i++;
                }
            }
            sink.lexeme(lexeme.toString(), tf);
        }
    }
}
