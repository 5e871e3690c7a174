package dev.backplane.cli.common;

import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Options of every command that talks to the backplane. */
public final class BackplaneOptions {

    @Option(names = "--backplane", paramLabel = "<url>",
            description = "backplane URL (default: SVC_BACKPLANE, else the current context's)")
    String backplane;

    @Mixin OutputOptions output = new OutputOptions();

    @Option(names = "--tenant", paramLabel = "<uuid>",
            description = "act on another tenant (platform_admin only; default SVC_TENANT, else the context's); current "
                    + "names your own")
    String tenant;

    /** Options given some other way than this mixin (the family verbs' early parse, completion). */
    public static BackplaneOptions of(String backplane, String tenant) {
        BackplaneOptions options = new BackplaneOptions();
        options.backplane = backplane;
        options.tenant = tenant;
        return options;
    }

    public String backplane() {
        return backplane;
    }

    /** Whether a document ({@code --json}, {@code -o json|yaml}) is printed instead of the human render. */
    public boolean json() {
        return output.json();
    }

    public OutputOptions output() {
        return output;
    }

    public OutputFormat format() {
        return output.format();
    }

    public String tenant() {
        return tenant;
    }
}
