package dev.backplane.plugins.ssh;

import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.ErrorCode;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * One remote command: a program from a fixed allowlist and its arguments, each a separate word.
 * SSH carries a command as one line that the remote login shell splits, so safety comes from the
 * words themselves: every word must consist of characters no shell treats specially
 * ({@code A-Z a-z 0-9 _ @ % + = : , . / -}); a word that would need quoting is refused with
 * {@code invalid_params} — never quoted or escaped. The optional standard input (for programs that
 * read a script, such as {@code nsupdate} or {@code nft -f -}) is printable ASCII lines only.
 *
 * @param program the program, one of the plugin's allowlist
 * @param args the arguments, in order
 * @param stdin what to send on standard input, if anything
 */
public record SshCommand(String program, List<String> args, Optional<String> stdin) {

    private static final Pattern WORD = Pattern.compile("[A-Za-z0-9_@%+=:,./-]+");
    private static final Pattern STDIN = Pattern.compile("[\\x20-\\x7e\\n]*");

    public SshCommand {
        Objects.requireNonNull(program, "program is null");
        args = List.copyOf(Objects.requireNonNull(args, "args is null"));
        Objects.requireNonNull(stdin, "stdin is null");
        for (String word : args) {
            requireWord(word);
        }
        requireWord(program);
        if (stdin.isPresent() && !STDIN.matcher(stdin.get()).matches()) {
            throw new ConnectorException(ErrorCode.INVALID_PARAMS,
                    "the command's input may hold printable ASCII lines only; refused");
        }
    }

    public SshCommand(String program, List<String> args) {
        this(program, args, Optional.empty());
    }

    /** True when {@code word} can be passed as one argument without quoting. */
    public static boolean isSafeWord(String word) {
        return word != null && WORD.matcher(word).matches();
    }

    /**
     * Refuses a word that would need quoting.
     *
     * @throws ConnectorException {@code invalid_params}
     */
    public static String requireWord(String word) {
        if (!isSafeWord(word)) {
            throw new ConnectorException(ErrorCode.INVALID_PARAMS, "a value would need shell quoting (only letters, "
                    + "digits and _ @ % + = : , . / - are passed to a remote command); refused");
        }
        return word;
    }

    /** Refuses a program that is not in {@code allowlist}. */
    public SshCommand allowedBy(Set<String> allowlist) {
        if (!allowlist.contains(program)) {
            throw new IllegalStateException("program " + program + " is not in this connector's allowlist");
        }
        return this;
    }

    /** The line sent to the server: the words joined by single spaces. */
    public String line() {
        List<String> words = new ArrayList<>();
        words.add(program);
        words.addAll(args);
        return String.join(" ", words);
    }
}
