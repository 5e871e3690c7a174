package dev.backplane.cli.targets;

import dev.backplane.cli.common.Json;
import dev.backplane.cli.common.RequestBody;
import dev.backplane.cli.common.QueryString;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.CliContext;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.ConfirmOption;
import dev.backplane.cli.common.Limits;
import dev.backplane.cli.common.Http;
import dev.backplane.cli.common.Tables;
import dev.backplane.cli.common.TextArgs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code svc targets ...}: the target registry. */
@Command(name = "targets", description = "Register and inspect targets.",
        subcommands = {TargetsCommand.Add.class, TargetsCommand.Describe.class, TargetsCommand.ListTargets.class,
                TargetsCommand.Delete.class, TargetsCommand.Import.class, TargetsCommand.StageSecret.class,
                TargetsCommand.Probe.class, TargetsCommand.Discover.class})
public final class TargetsCommand {

    static void printTarget(CliContext ctx, JsonNode t) {
        Map<String, String> rows = new LinkedHashMap<>();
        rows.put("name", t.path("name").asText());
        rows.put("aliases", String.join(", ", Json.texts(t.path("aliases"))));
        rows.put("product", t.path("product").asText() + (t.path("version").isNull() ? "" : " (asserted version "
                + t.path("version").asText() + ")"));
        rows.put("address", t.path("host").asText() + ":" + t.path("port").asInt()
                + (t.path("port_is_default").asBoolean() ? " (product default port)" : ""));
        rows.put("fqdn", Json.str(t.path("fqdn")));
        rows.put("secret_ref", t.path("secret_ref").asText());
        rows.put("auth_model", t.path("auth_model").asText());
        rows.put("tls", (t.path("verify_tls").asBoolean() ? "verified" : "NOT verified")
                + (t.path("tls_ca_pin").isNull() ? "" : ", pinned CA") + (t.path("tls_server_name").isNull() ? ""
                : ", server name " + t.path("tls_server_name").asText()));
        rows.put("vpn_required", String.valueOf(t.path("vpn_required").asBoolean()));
        rows.put("preferred_impl", Json.str(t.path("preferred_impl_id")));
        rows.put("notes", Json.str(t.path("notes")));
        rows.put("extras", t.path("extras").isEmpty() ? "" : t.path("extras").toString());
        rows.put("fingerprint", t.path("fingerprint").isNull() ? "(not probed)" : t.path("fingerprint").toString());
        rows.forEach((k, v) -> {
            if (!v.isEmpty()) {
                ctx.out().printf("%-15s %s%n", k, v);
            }
        });
    }



    /** add (alias create) [tenant_admin] */
    @Command(name = "add", aliases = "create", description = "Register a target [tenant_admin].")
    static final class Add extends BackplaneCommand {
        @Parameters(index = "0", paramLabel = "<name>")
        String name;
        @Option(names = "--host", required = true, description = "host or IP the connector dials")
        String host;
        @Option(names = "--product", required = true, description = "exact product token (e.g. k8s)")
        String product;
        @Option(names = "--alias", description = "another name for the target (repeatable)")
        List<String> aliases = new ArrayList<>();
        @Option(names = "--auth-model", description = "default shared_service_account")
        String authModel;
        @Option(names = "--fqdn")
        String fqdn;
        @Option(names = "--note", description = "free-form notes")
        String note;
        @Option(names = "--port")
        Integer port;
        @Option(names = "--preferred-impl", paramLabel = "<impl_id>", description = "resolver tie-break")
        String preferredImpl;
        @Option(names = "--secret-ref", description = "credential reference (default tenants/<tenant-id>/<name> for kv)")
        String secretRef;
        @Option(names = "--tls-ca-pin", paramLabel = "<pem|@file>", description = "PEM CA bundle to trust (@path reads a file)")
        String tlsCaPin;
        @Option(names = "--tls-server-name", description = "SNI / verification name when it differs from the host")
        String tlsServerName;
        @Option(names = "--verify-tls", arity = "0..1", fallbackValue = "true", paramLabel = "true|false",
                description = "--verify-tls=false disables certificate verification")
        Boolean verifyTls;
        @Option(names = "--version", description = "asserted product version (used before the first probe)")
        String version;

        /** The body of POST /api/v1/targets; what is not given is left to the backplane's defaults. */
        @RequestBody
        record NewTarget(String name, String product, String host, List<String> aliases, String authModel, String fqdn,
                String notes, Integer port, String preferredImplId, String secretRef, String tlsCaPin,
                String tlsServerName, Boolean verifyTls, String version) {
        }

        @Override
        protected void validate() {
            if (port != null && (port < 1 || port > 65535)) {
                throw CliException.usage("--port must be 1..65535, got " + port);
            }
            if (Boolean.FALSE.equals(verifyTls) && tlsCaPin != null) {
                throw CliException.usage("--verify-tls=false and --tls-ca-pin are mutually exclusive");
            }
        }

        @Override
        protected void execute(Session s) {
            NewTarget body = new NewTarget(name, product, host, aliases.isEmpty() ? null : aliases, authModel, fqdn, note,
                    port, preferredImpl, secretRef, pem(tlsCaPin), tlsServerName, verifyTls, version);
            send(s, "POST", ApiPaths.TARGETS, body, t -> {
                ctx.out().println("registered target " + t.path("name").asText());
                printTarget(ctx, t);
            });
        }
    }

    /** A PEM bundle given inline, as @path, or as a plain path to a readable file. */
    static String pem(String value) {
        if (value == null || value.startsWith("-----BEGIN") || value.startsWith("@")) {
            return TextArgs.read(value, "--tls-ca-pin");
        }
        Path p = Path.of(value);
        if (Files.isRegularFile(p)) {
            return TextArgs.read("@" + value, "--tls-ca-pin");
        }
        throw CliException.usage("--tls-ca-pin must be a PEM bundle, @file or a readable file path; no file " + value);
    }

    /** describe */
    @Command(name = "describe", description = "Show a target by name or alias.")
    static final class Describe extends BackplaneCommand {
        @Parameters(index = "0", paramLabel = "<name-or-alias>")
        String name;

        @Override
        protected void execute(Session s) {
            get(s, ApiPaths.expand(ApiPaths.TARGET, name), t -> printTarget(ctx, t));
        }
    }

    /** list */
    @Command(name = "list", description = "List targets by name.")
    static final class ListTargets extends BackplaneCommand {
        @Option(names = "--cursor", paramLabel = "<last name>", description = "continue after this name")
        String cursor;
        @Option(names = "--limit", paramLabel = "1..500", description = "page size (default 100)")
        Integer limit;
        @Option(names = {"--product", "-p"}, description = "only this product")
        String product;

        @Override
        protected void validate() {
            Limits.check(limit, 1, 500, "--limit");
        }

        @Override
        protected void execute(Session s) {
            get(s, ApiPaths.TARGETS + QueryString.of().add("cursor", cursor).add("limit", limit).add("product", product), page -> {
                List<List<String>> rows = Tables.rows(page.path("targets"), t -> List.of(t.path("name").asText(), t.path("product").asText(),
                            t.path("host").asText() + ":" + t.path("port").asInt(), String.join(",", Json.texts(t.path("aliases"))),
                            t.path("fingerprint").isNull() ? "-" : Json.str(t.path("fingerprint").path("version"))));
                Tables.print(ctx.out(), "no targets", List.of("NAME", "PRODUCT", "ADDRESS", "ALIASES", "PROBED VERSION"), rows);
                if (!page.path("next_cursor").isNull()) {
                    ctx.out().println("more: svc targets list --cursor " + page.path("next_cursor").asText());
                }
            });
        }
    }

    /** delete [tenant_admin] */
    @Command(name = "delete", description = "Delete a target [tenant_admin].")
    static final class Delete extends BackplaneCommand {
        @Parameters(index = "0", paramLabel = "<name-or-alias>")
        String name;
        @Mixin
        ConfirmOption confirm;

        @Override
        protected void validate() {
            confirm.require("delete " + name + ": the target and its aliases are removed");
        }

        @Override
        protected void execute(Session s) {
            send(s, "DELETE", ApiPaths.expand(ApiPaths.TARGET, name), null, r -> ctx.out().println("deleted target " + name));
        }
    }

    /** probe */
    @Command(name = "probe", description = "Probe a target live through its connector and store the fingerprint.")
    static final class Probe extends BackplaneCommand {
        @Parameters(index = "0", paramLabel = "<name-or-alias>")
        String name;

        @Override
        protected void execute(Session s) {
            send(s, "POST", ApiPaths.expand(ApiPaths.TARGET_PROBE, name), null, r -> {
                JsonNode f = r.path("fingerprint");
                ctx.out().println(r.path("target").asText() + " via " + r.path("connector_id").asText() + ": "
                        + (f.path("reachable").asBoolean() ? "reachable" : "NOT reachable")
                        + (f.has("error_code") ? " (" + f.path("error_code").asText() + ": " + f.path("reason").asText() + ")" : ""));
                for (String k : List.of("vendor", "product", "version", "probe_method", "probed_at", "exception_message")) {
                    if (f.has(k)) {
                        ctx.out().printf("  %-17s %s%n", k, f.path(k).asText());
                    }
                }
            });
        }
    }

    /** discover */
    @Command(name = "discover", description = "Find further targets of a product through a seed target's connector.")
    static final class Discover extends BackplaneCommand {
        @Parameters(index = "0", paramLabel = "<product>")
        String product;

        @Option(names = "--seed-target", paramLabel = "<name>", description = "registered target to discover from")
        String seed;

        /** The body of POST /api/v1/targets/discover. */
        @RequestBody
        record Discovery(String product, String seedTarget) {
        }

        @Override
        protected void execute(Session s) {
            send(s, "POST", ApiPaths.TARGETS_DISCOVER, new Discovery(product, seed), r -> {
                List<List<String>> rows = Tables.rows(r.path("candidates"), c -> List.of(c.path("name").asText(), c.path("product").asText(), c.path("host").asText()));
                ctx.out().println(rows.size() + " candidate(s) via " + r.path("connector_id").asText()
                        + " (nothing registered; add them with svc targets add or import)");
                if (!rows.isEmpty()) {
                    Tables.print(ctx.out(), List.of("NAME", "PRODUCT", "HOST"), rows);
                }
            });
        }
    }

    /** stage-secret [tenant_admin]: write-only */
    @Command(name = "stage-secret", description = "Stage a target's secret at its secret_ref from standard input "
            + "(or SVC_TARGET_SECRET) [tenant_admin]. Write-only: nothing ever prints it back.")
    static final class StageSecret extends BackplaneCommand {
        @Parameters(index = "0", paramLabel = "<name-or-alias>")
        String name;

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
            send(s, "PUT", ApiPaths.expand(ApiPaths.TARGET_SECRET, name), new SecretFields(fields), r -> ctx.out().println("staged field(s) " + Json.texts(r.path("fields")) + " at "
                    + r.path("secret_ref").asText() + " (" + r.path("store").asText() + ")"));
        }
    }

    /** import [tenant_admin] */
    @Command(name = "import", description = "Import targets from a targets.yaml file (all or nothing) [tenant_admin].")
    static final class Import extends BackplaneCommand {
        static final Set<String> KEYS = Set.of("name", "aliases", "product", "host", "port", "fqdn", "secret_ref",
                "auth_model", "vpn_required", "notes", "preferred_impl_id", "verify_tls", "tls_ca_pin", "tls_server_name",
                "extras", "version");

        @Parameters(index = "0", paramLabel = "<file>", description = "YAML (or JSON) with a top-level 'targets' list")
        Path file;
        @Option(names = "--dry-run", description = "print the plan; write nothing")
        boolean dryRun;
        @Option(names = "--update", description = "sparse-patch existing names and create new ones")
        boolean update;

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
                            + " " + Json.texts(r.path("created")) + ", would update " + r.path("updated_count").asInt() + " "
                            + Json.texts(r.path("updated")));
                } else {
                    ctx.out().println("created " + r.path("created_count").asInt() + ", updated "
                            + r.path("updated_count").asInt());
                }
            });
        }
    }
}
