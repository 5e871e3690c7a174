package dev.backplane.cli.conventions;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code svc conventions create} */
@Command(name = "create", description = "Create a convention [tenant_admin].")
final class ConventionCreate extends BackplaneCommand {
    @Option(names = "--slug", required = true, paramLabel = "<slug>",
            description = "lowercase ASCII letters, digits and '-', at most 128")
    String slug;
    @Option(names = "--title", required = true, paramLabel = "<title>", description = "one line, at most 200 characters")
    String title;
    @Option(names = "--kind", required = true, paramLabel = "<kind>", description = "operational, workflow or reference")
    String kind;
    @Option(names = "--priority", paramLabel = "-32768..32767",
            description = "higher wins when operational conventions exceed the agents' budget (default 0)")
    Integer priority;
    @Option(names = "--body", required = true, paramLabel = "<text|@file|@->",
            description = "the convention: text, @file, or @- for standard input (at most 64 KiB)")
    String body;

    private String text;

    @Override
    protected void validate() {
        ConventionKind.check(kind);
        dev.backplane.cli.common.Limits.check(priority, Short.MIN_VALUE, Short.MAX_VALUE, "--priority");
        text = BodyArg.read(ctx, body);
    }

    @Override
    protected void execute(Session s) {
        send(s, "POST", ApiPaths.CONVENTIONS, new ConventionWrite(slug, title, kind, priority, text, null), c ->
                ctx.out().println("created convention " + c.path("slug").asText() + " (" + c.path("kind").asText()
                        + ", priority " + c.path("priority").asInt() + ", version " + c.path("version").asInt() + ")"));
    }
}
