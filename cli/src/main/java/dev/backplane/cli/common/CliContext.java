package dev.backplane.cli.common;

import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * What a command may touch of the outside world: its output streams, standard input, the environment and what
 * standard output is (a terminal of some width, or a pipe). Commands never read {@code System.*} directly, so tests
 * run them in-process.
 */
public record CliContext(PrintWriter out, PrintWriter err, InputStream in, Map<String, String> env, Terminal terminal) {

    /** Output to a pipe (tests, scripts): tables print whole. */
    public CliContext(PrintWriter out, PrintWriter err, InputStream in, Map<String, String> env) {
        this(out, err, in, env, Terminal.PIPE);
    }

    /** The same, with tables printed whole ({@code -o wide}) whatever the terminal. */
    public CliContext wide() {
        return new CliContext(out, err, in, env, Terminal.PIPE);
    }

    public Optional<String> env(String name) {
        String v = env.get(name);
        return v == null || v.isBlank() ? Optional.empty() : Optional.of(v);
    }

    /** {@code $XDG_CONFIG_HOME/svc}, else {@code ~/.config/svc}. */
    public Path configDir() {
        return env("XDG_CONFIG_HOME").map(Path::of)
                .orElseGet(() -> Path.of(env("HOME").orElse(System.getProperty("user.home")), ".config"))
                .resolve("svc");
    }
}
