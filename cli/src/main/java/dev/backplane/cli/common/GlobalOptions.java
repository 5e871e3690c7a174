package dev.backplane.cli.common;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** Options every command takes. */
public final class GlobalOptions {

    @Option(names = "--config", paramLabel = "<path>", scope = picocli.CommandLine.ScopeType.INHERIT,
            description = "CLI config file (default $XDG_CONFIG_HOME/svc/config.json)")
    Path config;

    @Option(names = "--context", paramLabel = "<name>", scope = picocli.CommandLine.ScopeType.INHERIT,
            description = "the context to use (default SVC_CONTEXT, else the current one; see svc context list)")
    String context;

    @Option(names = {"-v", "--verbose"}, scope = picocli.CommandLine.ScopeType.INHERIT,
            description = "print more detail, including HTTP exchanges (never tokens)")
    boolean verbose;

    public Path configFile(CliContext ctx) {
        return config != null ? config : ctx.configDir().resolve("config.json");
    }

    /** {@code --context}, or null. */
    public String context() {
        return context;
    }

    public boolean verbose() {
        return verbose;
    }
}
