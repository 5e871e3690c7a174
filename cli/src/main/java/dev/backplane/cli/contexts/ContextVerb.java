package dev.backplane.cli.contexts;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.backplane.cli.CliCommand;
import dev.backplane.cli.common.CliConfig;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.Commands;
import dev.backplane.cli.common.Http;
import java.nio.file.Path;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** A verb on the CLI's own config file: it never talks to a backplane. */
abstract class ContextVerb extends CliCommand {

    @Spec CommandSpec spec;

    Path file() {
        return Commands.global(spec).configFile(ctx);
    }

    CliConfig config() {
        return CliConfig.load(file());
    }

    /** The context {@code name} names; a usage error that lists the contexts when there is none. */
    static CliConfig.Context existing(CliConfig config, String name) {
        return config.context(name).orElseThrow(() -> CliException.usage("no context '" + name + "'"
                + (config.contexts().isEmpty() ? "; svc login <backplane-url> makes one"
                : "; the contexts are: " + String.join(", ", config.contexts().keySet()))));
    }

    /** One context as {@code -o json} shows it. */
    static ObjectNode json(String name, CliConfig.Context c, boolean current) {
        ObjectNode node = Http.JSON.createObjectNode();
        node.put("name", name);
        node.put("current", current);
        node.put("backplane", c.backplane());
        node.put("tenant", c.tenant());
        node.put("output", c.output());
        node.put("own_login", !c.identity().equals(c.backplane()));
        return node;
    }
}
