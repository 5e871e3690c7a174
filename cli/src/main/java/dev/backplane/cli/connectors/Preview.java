package dev.backplane.cli.connectors;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.CliException;
import picocli.CommandLine.Command;

/** {@code svc operation preview} */
@Command(name = "preview", description = "Show the request an operation would send, and its preview hash.")
final class Preview extends OperationRequestCommand {
    @Override
    protected void execute(Session s) {
        JsonNode answer = send(s, "POST", ApiPaths.OPERATIONS_PREVIEW, new OperationRequest(connectorId, opId, target,
                parsed), env -> {
            JsonNode r = env.path("result");
            switch (env.path("status").asText()) {
                case "ok" -> {
                    ctx.out().println(r.path("method").asText() + " " + r.path("path").asText()
                            + (r.path("query").isEmpty() ? "" : "  query " + r.path("query")));
                    if (!r.path("body").isNull()) {
                        ctx.out().println("body " + r.path("body").toPrettyString());
                    }
                    ctx.out().println("preview_hash " + r.path("preview_hash").asText());
                }
                case "unavailable" -> ctx.out().println("unavailable: " + env.path("error").asText());
                default -> ctx.out().println(env.path("status").asText() + ": " + env.path("error").asText());
            }
        });
        if (answer.path("status").asText().equals("error")) {
            throw CliException.failed(opId + ": " + answer.path("error").asText());
        }
    }
}
