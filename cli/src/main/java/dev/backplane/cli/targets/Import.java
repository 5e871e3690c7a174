package dev.backplane.cli.targets;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.Http;
import dev.backplane.cli.common.Json;
import dev.backplane.cli.common.RequestBody;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code svc targets import} [tenant_admin] */
@Command(name = "import", description = "Import targets from a targets.yaml file (all or nothing) [tenant_admin].")
final class Import extends BackplaneCommand {
    static final Set<String> KEYS = Set.of("name", "aliases", "product", "host", "port", "fqdn", "secret_ref",
            "auth_model", "vpn_required", "notes", "preferred_impl_id", "verify_tls", "tls_ca_pin", "tls_server_name",
            "extras", "version");

    @Parameters(index = "0", paramLabel = "<file>", description = "YAML (or JSON) with a top-level 'targets' list")

    Path file;
    @Option(names = "--dry-run", description = "print the plan; write nothing")
    boolean dryRun;
    @Option(names = "--update", description = "sparse-patch existing names and create new ones") boolean update;

    private List<ObjectNode> rows;

    /** The body of POST /api/v1/targets/import: all or nothing. */
    @RequestBody
    record ImportRequest(List<ObjectNode> targets, boolean update, boolean dryRun) {
    }

    @Override
    protected void validate() {
        rows = readRows();
    }

    private List<ObjectNode> readRows() {
        JsonNode doc;
        try {
            doc = new ObjectMapper(new YAMLFactory()).readTree(Files.readAllBytes(file));
        } catch (IOException e) {
            throw CliException.usage("cannot read " + file + ": " + e.getMessage());
        }
        if (doc == null || !doc.path("targets").isArray()) {
            throw CliException.usage(file + " must hold a top-level key 'targets' with a list of targets");
        }
        List<ObjectNode> out = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        int i = 0;
        for (JsonNode t : doc.path("targets")) {
            i++;
            if (!t.isObject()) {
                problems.add("entry " + i + " is not a mapping");
                continue;
            }
            ObjectNode row = Http.JSON.createObjectNode();
            ObjectNode extras = t.path("extras").isObject() ? ((ObjectNode) t.path("extras")).deepCopy()
                    : Http.JSON.createObjectNode();
            for (Map.Entry<String, JsonNode> e : t.properties()) {
                String key = e.getKey();
                if (key.equals("fingerprint")) {
                    ctx.err().println("warning: entry " + i + " (" + t.path("name").asText("?")
                            + "): fingerprint is server-managed and was dropped");
                } else if (key.equals("extras")) {
                    continue;
                } else if (KEYS.contains(key)) {
                    row.set(key, e.getValue());
                } else {
                    extras.set(key, e.getValue());
                }
            }
            if (!extras.isEmpty()) {
                row.set("extras", extras);
            }
            for (String required : List.of("name", "product", "host")) {
                if (!row.path(required).isTextual() || row.path(required).asText().isBlank()) {
                    problems.add("entry " + i + (row.path("name").isTextual() ? " (" + row.path("name").asText() + ")"
                            : "") + ": '" + required + "' is required");
                }
            }
            out.add(row);
        }
        if (!problems.isEmpty()) {
            throw CliException.usage("nothing was sent; fix " + file + ":\n  " + String.join("\n  ", problems));
        }
        if (out.isEmpty()) {
            throw CliException.usage(file + " lists no targets");
        }
        return out;
    }

    @Override
    protected void execute(Session s) {
        send(s, "POST", ApiPaths.TARGETS_IMPORT, new ImportRequest(rows, update, dryRun), r -> {
            if (dryRun) {
                ctx.out().println("dry run (nothing written): would create " + r.path("created_count").asInt()
                        + " " + Json.texts(r.path("created")) + ", would update " + r.path("updated_count").asInt()
                        + " "
                        + Json.texts(r.path("updated")));
            } else {
                ctx.out().println("created " + r.path("created_count").asInt() + ", updated "
                        + r.path("updated_count").asInt());
            }
        });
    }
}
