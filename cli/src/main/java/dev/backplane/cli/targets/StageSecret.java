package dev.backplane.cli.targets;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.Http;
import dev.backplane.cli.common.Json;
import dev.backplane.cli.common.RequestBody;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code svc targets stage-secret} [tenant_admin]: write-only */
@Command(name = "stage-secret", description = "Stage a target's secret at its secret_ref from standard input "
        + "(or SVC_TARGET_SECRET) [tenant_admin]. Write-only: nothing ever prints it back.")
final class StageSecret extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<name-or-alias>") String name;

    @Option(names = "--field", paramLabel = "<name>", description = "store the whole input as this one field "
            + "(e.g. --field kubeconfig < ~/.kube/config); without it the input is a JSON object or key=value lines")
    String field;

    private Map<String, String> fields;

    /** The body of PUT /api/v1/targets/{name}/secret. */
    @RequestBody
    record SecretFields(Map<String, String> fields) {
    }

    @Override
    protected void validate() {
        String input = ctx.env("SVC_TARGET_SECRET").orElseGet(this::stdin);
        if (input.isBlank()) {
            throw CliException.usage("no secret given: pipe it on standard input or set SVC_TARGET_SECRET");
        }
        fields = field != null ? Map.of(field, input) : parse(input);
    }

    private String stdin() {
        try {
            return new String(ctx.in().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw CliException.failed("cannot read standard input: " + e.getMessage());
        }
    }

    private static Map<String, String> parse(String input) {
        String text = input.strip();
        Map<String, String> out = new LinkedHashMap<>();
        if (text.startsWith("{")) {
            try {
                JsonNode obj = Http.JSON.readTree(text);
                for (Map.Entry<String, JsonNode> e : obj.properties()) {
                    if (!e.getValue().isValueNode() || e.getValue().isNull()) {
                        throw CliException.usage("secret field '" + e.getKey() + "' must be a string");
                    }
                    out.put(e.getKey(), e.getValue().asText());
                }
                return out;
            } catch (IOException e) {
                throw CliException.usage("the secret looks like JSON but does not parse (the value is not shown)");
            }
        }
        int line = 0;
        for (String l : text.split("\\R")) {
            line++;
            if (l.isBlank()) {
                continue;
            }
            int eq = l.indexOf('=');
            if (eq <= 0) {
                throw CliException.usage("line " + line + " of the secret is not key=value (use --field for a "
                        + "single-valued secret such as a kubeconfig)");
            }
            out.put(l.substring(0, eq).trim(), l.substring(eq + 1));
        }
        return out;
    }

    @Override
    protected void execute(Session s) {
        send(s, "PUT", ApiPaths.expand(ApiPaths.TARGET_SECRET, name), new SecretFields(fields),
                r -> ctx.out().println("staged field(s) " + Json.texts(r.path("fields")) + " at "
                + r.path("secret_ref").asText() + " (" + r.path("store").asText() + ")"));
    }
}
