package dev.backplane.cli.conventions;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.Limits;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code svc conventions edit}: a partial change. Without {@code --body} the current body opens in
 * {@code $EDITOR}; an unchanged or emptied body sends nothing (the edit carries the version it started
 * from, so someone else's change meanwhile is a conflict, not silently overwritten).
 */
@Command(name = "edit", description = "Change a convention [tenant_admin]; only the options given change. Without "
        + "--body the current body opens in $EDITOR (then $VISUAL, else vi); an unchanged or empty result sends nothing.")
final class ConventionEdit extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<slug>") String slug;
    @Option(names = "--title", paramLabel = "<title>", description = "one line, at most 200 characters") String title;
    @Mixin ConventionKind kind;
    @Option(names = "--priority", paramLabel = "-32768..32767", description = "higher wins when over the agents' budget")
    Integer priority;
    @Option(names = "--body", paramLabel = "<text|@file|@->",
            description = "the new body: text, @file, or @- for standard input; omitted: edit it in $EDITOR")
    String body;

    private String text;

    @Override
    protected void validate() {
        kind.check();
        Limits.check(priority, Short.MIN_VALUE, Short.MAX_VALUE, "--priority");
        if (body != null) {
            text = BodyArg.read(ctx, body);
        }
    }

    @Override
    protected void execute(Session s) {
        String path = ApiPaths.expand(ApiPaths.CONVENTION, slug);
        Integer expected = null;
        if (body == null) {
            JsonNode current = s.client().call("GET", path, null).json();
            String before = current.path("body").asText();
            String edited = Editor.edit(ctx, "convention-" + slug, before).strip();
            if (edited.isEmpty()) {
                ctx.out().println("no change: the edited body is empty; nothing sent");
                return;
            }
            if (!edited.equals(before.strip())) {
                text = edited;
            } else if (title == null && kind.value == null && priority == null) {
                ctx.out().println("no change: convention " + slug + " stays at version " + current.path("version").asInt());
                return;
            }
            expected = current.path("version").asInt();
        }
        try {
            send(s, "PATCH", path, new ConventionWrite(null, title, kind.value, priority, text, expected), c ->
                    ctx.out().println("updated convention " + c.path("slug").asText() + " (version "
                            + c.path("version").asInt() + ")"));
        } catch (CliException refused) {
            if (body == null && text != null) {
                // an edit made in the editor is not thrown away with a refused write (a conflict, a size limit)
                java.nio.file.Path kept = Editor.keep(ctx, "convention-" + slug, text);
                throw new CliException(refused.exitCode(), refused.getMessage() + "; your edit is kept in " + kept
                        + " (svc conventions edit " + slug + " --body @" + kept + ")");
            }
            throw refused;
        }
    }
}
