package dev.backplane.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.common.BackplaneOptions;
import dev.backplane.cli.common.CliContext;
import dev.backplane.cli.common.Commands;
import dev.backplane.cli.common.Contexts;
import dev.backplane.cli.common.Limits;
import dev.backplane.cli.common.Render;
import java.util.function.Consumer;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * Base of every leaf command that talks to the backplane: opens a {@link Session} with the shared
 * options, runs the command, and prints either the server's JSON ({@code --json}, {@code -o json|yaml}) or a human render.
 */
public abstract class BackplaneCommand extends CliCommand {

    @Spec protected CommandSpec spec;

    @Mixin protected BackplaneOptions options;

    protected BackplaneCommand() {
    }

    /** For commands built by hand (the family verbs). */
    protected BackplaneCommand(CliContext ctx) {
        super(ctx);
    }

    @Override
    public final void run() {
        Limits.checkRanges(spec);
        Contexts.applyOutputDefault(ctx, Commands.global(spec), options);
        if (options.format().wide()) {
            ctx = ctx.wide(); // every cell whole, whatever the terminal
        }
        validate();
        if (handledLocally()) {
            return;
        }
        try (Session session = Session.open(ctx, Commands.global(spec), options)) {
            execute(session);
        }
    }

    /**
     * Checks the arguments before anything is sent; throw a usage error on bad input. Numeric ranges
     * need no code here: a label such as {@code paramLabel = "1..500"} is enforced by {@link Limits#checkRanges}.
     */
    protected void validate() {
    }

    /** For a verb that can also work without the backplane (an offline file check): does it and returns true. */
    protected boolean handledLocally() {
        return false;
    }

    protected abstract void execute(Session session);

    /** Prints the server's JSON with {@code --json}, else the human render. */
    protected void print(JsonNode json, Runnable human) {
        if (options.json()) {
            options.output().print(ctx.out(), json);
        } else {
            human.run();
        }
    }

    /** GETs {@code path} and prints the answer: as sent with {@code --json}, else through {@code human}. */
    protected JsonNode get(Session s, String path, Consumer<JsonNode> human) {
        return send(s, "GET", path, null, human);
    }

    /** As {@link #send(Session, String, String, Object, Consumer)}, with a {@link Render} for the human output. */
    protected JsonNode send(Session s, String method, String path, Object body, Render human) {
        return send(s, method, path, body, answer -> human.print(ctx, answer));
    }

    /** Sends one request and prints the answer: as sent with {@code --json}, else through {@code human}. */
    protected JsonNode send(Session s, String method, String path, Object body, Consumer<JsonNode> human) {
        JsonNode answer = s.client().call(method, path, body).json();
        print(answer, () -> human.accept(answer));
        return answer;
    }
}
