package dev.backplane.cli.common;

import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * What a command may touch of the outside world: its output streams, standard input and the
 * environment. Commands never read {@code System.*} directly, so tests run them in-process.
 */
public record CliContext(PrintWriter out, PrintWriter err, InputStream in, Map<String, String> env) {

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
