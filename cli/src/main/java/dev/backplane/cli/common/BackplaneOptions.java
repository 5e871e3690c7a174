package dev.backplane.cli.common;

import picocli.CommandLine.Option;

/** Options of every command that talks to the backplane. */
public final class BackplaneOptions {

    @Option(names = "--backplane", paramLabel = "<url>",
            description = "backplane URL (default: the URL of the latest login)")
    String backplane;

    @Option(names = "--json", description = "print the raw JSON the backplane returned")
    boolean json;

    @Option(names = "--tenant", paramLabel = "<uuid>",
            description = "act on another tenant (platform_admin only); current names your own")
    String tenant;

    public String backplane() {
        return backplane;
    }

    public boolean json() {
        return json;
    }

    public String tenant() {
        return tenant;
    }
}
