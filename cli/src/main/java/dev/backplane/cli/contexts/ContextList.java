package dev.backplane.cli.contexts;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.backplane.cli.common.CliConfig;
import dev.backplane.cli.common.Http;
import dev.backplane.cli.common.OutputOptions;
import dev.backplane.cli.common.Tables;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code svc context list}. */
@Command(name = "list", aliases = "ls", description = "List the contexts; * marks the current one.")
final class ContextList extends ContextVerb {

    @Mixin OutputOptions output;

    @Override
    public void run() {
        CliConfig config = config();
        String current = config.currentName().orElse(null);
        if (output.json()) {
            ObjectNode doc = Http.JSON.createObjectNode();
            doc.put("current_context", current);
            ArrayNode all = doc.putArray("contexts");
            config.contexts().forEach((name, c) -> all.add(json(name, c, name.equals(current))));
            output.print(ctx.out(), doc);
            return;
        }
        List<List<String>> rows = new ArrayList<>();
        config.contexts().forEach((name, c) -> rows.add(List.of(name.equals(current) ? "*" : "", name, c.backplane(),
                Objects.requireNonNullElse(c.tenant(), "(own)"), Objects.requireNonNullElse(c.output(), "table"))));
        Tables.print(ctx, "no contexts: svc login <backplane-url> makes one",
                List.of("CURRENT", "NAME", "BACKPLANE", "TENANT", "OUTPUT"), rows);
    }
}
