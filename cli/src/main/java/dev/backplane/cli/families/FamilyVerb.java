package dev.backplane.cli.families;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.CliContext;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.Envelopes;
import dev.backplane.cli.common.ExitCodes;
import dev.backplane.cli.common.Http;
import dev.backplane.cli.common.Tables;
import dev.backplane.cli.connectors.OperationRequest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Option;

/**
 * One family verb ({@code svc k8s pod list}): an operation of the catalog with its params turned
 * into flags, sent through the dispatch pipeline like {@code svc operation call}. Write verbs park
 * for approval there like any call; {@code --json} prints the whole result envelope.
 */
@Command(mixinStandardHelpOptions = true,
        exitCodeListHeading = ExitCodes.HELP_HEADING, exitCodeList = {ExitCodes.HELP_OK, ExitCodes.HELP_FAILED,
                ExitCodes.HELP_USAGE, ExitCodes.HELP_DENIED, ExitCodes.HELP_PARKED, ExitCodes.HELP_UNREACHABLE,
                ExitCodes.HELP_NOT_LOGGED_IN})
final class FamilyVerb extends BackplaneCommand {

    /** How one params property is given on the command line. */
    record Binding(String property, String type, ArgSpec arg) {
    }

    @Option(names = "--target", required = true, paramLabel = "<target>", description = "target name or alias")

    String target;

    @Option(names = "--work-ref", paramLabel = "<ref>", description = "external change-ticket reference")

    String workRef;

    @Option(names = "--preview-hash", paramLabel = "<hash>",
            description = "hash from svc operation preview (dangerous operations need it)")
    String previewHash;

    private final String connectorId;
    private final String opId;
    private final OperationCatalogCache cache;
    private final List<Binding> bindings = new ArrayList<>();
    private Map<String, Object> params;

    FamilyVerb(CliContext ctx, String connectorId, String opId, OperationCatalogCache cache) {
        super(ctx);
        this.connectorId = connectorId;
        this.opId = opId;
        this.cache = cache;
    }

    void bind(Binding b) {
        bindings.add(b);
    }

    @Override
    protected void validate() {
        params = new LinkedHashMap<>();
        for (Binding b : bindings) {
            Object v = b.arg().getValue();
            if (v == null || (v instanceof Boolean flag && !flag) || (v instanceof List<?> l && l.isEmpty())) {
                continue;
            }
            if (b.type().equals("object") || b.type().equals("json")) {
                String text = dev.backplane.cli.common.TextArgs.read(v.toString(), b.arg().paramLabel());
                try {
                    Class<?> shape = b.type().equals("object") ? Map.class : Object.class;
                    v = Http.JSON.readValue(text, shape);
                } catch (java.io.IOException e) {
                    throw CliException.usage(b.arg().paramLabel() + " takes JSON" + (b.type().equals("object")
                            ? " (an object)" : "") + " or @file: " + e.getMessage());
                }
            }
            params.put(b.property(), v);
        }
    }

    @Override
    protected void execute(Session s) {
        OperationRequest body = new OperationRequest(connectorId, opId, target, params, previewHash, workRef);
        JsonNode env = s.client().call("POST", ApiPaths.OPERATIONS_CALL, body).json();
        if (env.path("extras").path("error_code").asText().equals("unknown_operation")) {
            cache.forget(); // the catalog changed under us; the next run rebuilds the verbs
        }
        Envelopes.finish(ctx, env, opId, options.format(), this::human);
    }

    /** Rows as a table; an object with log lines as those lines; any other object as JSON. */
    private void human(JsonNode result) {
        if (result.isArray()) {
            if (result.isEmpty()) {
                ctx.out().println("(none)");
                return;
            }
            Set<String> columns = new LinkedHashSet<>();
            result.forEach(r -> r.fieldNames().forEachRemaining(columns::add));
            List<List<String>> rows = new ArrayList<>();
            for (JsonNode r : result) {
                List<String> row = new ArrayList<>();
                for (String c : columns) {
                    JsonNode v = r.path(c);
                    row.add(v.isMissingNode() || v.isNull() ? "" : v.isValueNode() ? v.asText() : v.toString());
                }
                rows.add(row);
            }
            Tables.print(ctx, columns.stream().map(c -> c.toUpperCase(java.util.Locale.ROOT)).toList(), rows);
        } else if (result.path("lines").isArray()) {
            result.path("lines").forEach(l -> ctx.out().println(l.asText()));
        } else {
            ctx.out().println(result.toPrettyString());
        }
    }
}
