package dev.backplane.cli.docs;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.Session;
import picocli.CommandLine.Command;

/** {@code svc docs collections probe} */
@Command(name = "probe", description = "Check that the collection's retrieval backend answers [operator].")
final class Probe extends KeyCommand {
    @Override
    protected void execute(Session s) {
        JsonNode r = call(s, "POST", "/probe");
        print(r, () -> ctx.out().println("doc collection " + key + ": backend answered in "
                + r.path("latency_ms").asLong() + " ms (" + r.path("chunks").asInt() + " chunk(s))"));
    }
}
