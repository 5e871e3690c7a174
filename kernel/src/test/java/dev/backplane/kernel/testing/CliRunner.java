package dev.backplane.kernel.testing;

import dev.backplane.cli.Svc;
import dev.backplane.cli.common.CliContext;
import dev.backplane.cli.common.Terminal;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Runs {@code svc} commands in-process with their own config directory, capturing output. */
public final class CliRunner {

    /** One finished command. */
    public record Result(int exitCode, String out, String err) {
        @Override
        public String toString() {
            return "exit " + exitCode + "\nout: " + out + "\nerr: " + err;
        }
    }

    /** A command still running, whose output can be read while it runs. */
    public record Running(CompletableFuture<Result> result, StringWriter err) {
        /** Waits until standard error matches {@code pattern} and returns group 1. */
        public String awaitErr(Pattern pattern, Duration timeout) throws InterruptedException {
            Instant deadline = Instant.now().plus(timeout);
            while (Instant.now().isBefore(deadline)) {
                Matcher m = pattern.matcher(err.toString());
                if (m.find()) {
                    return m.group(1);
                }
                if (result.isDone()) {
                    throw new AssertionError("command ended before printing " + pattern + ": " + result.join());
                }
                Thread.sleep(100);
            }
            throw new AssertionError("no " + pattern + " in: " + err);
        }
    }

    private final Map<String, String> env = new HashMap<>();
    private final Path home;
    private Terminal terminal = Terminal.PIPE;

    public CliRunner(Path configHome) {
        home = configHome;
        env.put("XDG_CONFIG_HOME", configHome.toString());
        env.put("HOME", configHome.toString());
        env.put("SVC_TOKEN_STORE", "file");
    }

    /** Runs the commands as if standard output were a terminal {@code columns} wide (default: a pipe). */
    public CliRunner terminal(int columns) {
        terminal = new Terminal(columns);
        return this;
    }

    public CliRunner env(String name, String value) {
        env.put(name, value);
        return this;
    }

    /** Writes {@code content} to {@code name} in the runner's config directory; the path is what {@code @file} takes. */
    public Path file(String name, String content) {
        try {
            return Files.writeString(home.resolve(name), content);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public Result run(String... args) {
        return run(Map.of(), "", args);
    }

    public Result run(Map<String, String> extraEnv, String stdin, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        Map<String, String> all = new HashMap<>(env);
        all.putAll(extraEnv);
        int code = Svc.run(args, new CliContext(new PrintWriter(out, true), new PrintWriter(err, true),
                new ByteArrayInputStream(stdin.getBytes()), all, terminal));
        return new Result(code, out.toString(), err.toString());
    }

    public Running start(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        Map<String, String> all = new HashMap<>(env);
        CompletableFuture<Result> f = new CompletableFuture<>();
        Thread.ofVirtual().name("svc " + String.join(" ", args)).start(() -> {
            try {
                int code = Svc.run(args, new PrintWriter(out, true), new PrintWriter(err, true),
                        new ByteArrayInputStream(new byte[0]), all);
                f.complete(new Result(code, out.toString(), err.toString()));
            } catch (Throwable t) {
                f.completeExceptionally(t);
            }
        });
        return new Running(f, err);
    }
}
