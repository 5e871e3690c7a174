package dev.backplane.cli.connectors;

import dev.backplane.cli.common.Json;
import dev.backplane.cli.common.RequestBody;
import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.ConfirmOption;
import dev.backplane.cli.common.Tables;
import dev.backplane.cli.common.TextArgs;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code svc connector ...}: the connector catalog and its review. */
@Command(name = "connector", description = "List, review and enable connectors and their operations.",
        subcommands = {ConnectorCommand.ListConnectors.class, ConnectorCommand.Review.class, ConnectorCommand.Enable.class,
                ConnectorCommand.Disable.class, ConnectorCommand.EnableReads.class, ConnectorCommand.EditGroup.class,
                ConnectorCommand.EditOp.class, ConnectorCommand.CatalogCmd.class, IngestCommands.Ingest.class,
                IngestCommands.IngestStatus.class})
public final class ConnectorCommand {


    /** list */
    @Command(name = "list", description = "Connectors with their review status (broken plugins show why).")
    static final class ListConnectors extends BackplaneCommand {
        @Option(names = "--status", paramLabel = "staged|enabled|disabled|broken|all", description = "filter (default all)")
        String status;

        @Override
        protected void execute(Session s) {
            get(s, ApiPaths.CONNECTORS + (status == null ? "" : "?status=" + status), list -> {
                List<List<String>> rows = new ArrayList<>();
                for (JsonNode c : list) {
                    boolean broken = c.path("status").asText().equals("broken");
                    rows.add(List.of(c.path("connector_id").asText(), c.path("status").asText(),
                            broken ? "" : String.join(",", Json.texts(c.path("products"))),
                            broken ? "" : c.path("enabled_op_count").asInt() + "/" + c.path("operation_count").asInt(),
                            broken ? c.path("plugin_file").asText() + ": " + Json.str(c.path("reason"))
                                    : String.join(" ", Json.texts(c.path("supported_versions")))
                                    + (c.path("source").asText().equals("ingested") ? " (ingested)" : "")
                                    + (Json.str(c.path("reason")).isEmpty() ? "" : " — " + Json.str(c.path("reason")))));
                }
                if (rows.isEmpty()) {
                    ctx.out().println("no connectors" + (status == null ? "" : " with status " + status));
                    return;
                }
                Tables.print(ctx.out(), List.of("CONNECTOR", "STATUS", "PRODUCTS", "ENABLED OPS", "VERSIONS / REASON"), rows);
            });
        }
    }

    /** review */
    @Command(name = "review", description = "Show a connector's groups and operations with their review state.")
    static final class Review extends BackplaneCommand {
        @Parameters(index = "0", paramLabel = "<connector_id>")
        String id;

        @Override
        protected void execute(Session s) {
            get(s, ApiPaths.expand(ApiPaths.CONNECTOR, id), r -> {
                JsonNode c = r.path("connector");
                ctx.out().println(c.path("connector_id").asText() + "  status " + c.path("status").asText() + "  "
                        + c.path("enabled_op_count").asInt() + "/" + c.path("operation_count").asInt()
                        + " operations enabled  products " + String.join(",", Json.texts(c.path("products")))
                        + "  secret fields " + String.join(",", Json.texts(r.path("secret_fields"))));
                for (JsonNode g : r.path("groups")) {
                    ctx.out().println();
                    ctx.out().println("[" + g.path("group_key").asText() + "] " + g.path("display_name").asText() + " ("
                            + g.path("enabled_op_count").asInt() + "/" + g.path("operation_count").asInt() + " enabled"
                            + (g.path("partial").asBoolean() ? ", partial" : "") + ") — " + g.path("when_to_use").asText());
                    List<List<String>> rows = new ArrayList<>();
                    for (JsonNode op : r.path("operations")) {
                        if (op.path("group_key").asText().equals(g.path("group_key").asText())) {
                            rows.add(List.of(op.path("is_enabled").asBoolean() ? "on" : "off", op.path("op_id").asText(),
                                    op.path("safety_level").asText(), op.path("requires_approval").asBoolean() ? "approval" : "",
                                    op.path("description").asText()));
                        }
                    }
                    Tables.print(ctx.out(), List.of("  ", "OP", "SAFETY", "GATE", "DESCRIPTION"), rows);
                }
            });
        }
    }

    /** Shared by enable, disable and enable-reads: a review action that needs --confirm. */
    abstract static class Transition extends BackplaneCommand {
        @Parameters(index = "0", paramLabel = "<connector_id>")
        String id;

        @Mixin
        ConfirmOption confirm;

        abstract String action();

        abstract String consequence();

        @Override
        protected void validate() {
            confirm.require(action() + " " + id + ": " + consequence());
        }

        @Override
        protected void execute(Session s) {
            send(s, "POST", ApiPaths.expand(ApiPaths.CONNECTOR, id) + "/" + action(), null, r -> ctx.out().println(r.path("connector_id").asText() + ": " + r.path("message").asText()
                    + " (status " + r.path("previous_status").asText() + " -> " + r.path("status").asText() + ")"));
        }
    }

    /** enable */
    @Command(name = "enable", description = "Enable a connector for your tenant [tenant_admin].")
    static final class Enable extends Transition {
        String action() {
            return "enable";
        }

        String consequence() {
            return "its enabled operations become dispatchable for your tenant";
        }
    }

    /** disable */
    @Command(name = "disable", description = "Disable a connector for your tenant [tenant_admin].")
    static final class Disable extends Transition {
        String action() {
            return "disable";
        }

        String consequence() {
            return "none of its operations will be dispatchable (overrides are kept)";
        }
    }

    /** enable-reads */
    @Command(name = "enable-reads", description = "Enable every read-class (GET/HEAD) operation [tenant_admin].")
    static final class EnableReads extends Transition {
        String action() {
            return "enable-reads";
        }

        String consequence() {
            return "every read-class operation is enabled; writes stay default-deny";
        }
    }

    /** edit-group */
    @Command(name = "edit-group", description = "Rename a group or change its when-to-use hint [tenant_admin].")
    static final class EditGroup extends BackplaneCommand {
        @Parameters(index = "0", paramLabel = "<connector_id>")
        String id;

        @Parameters(index = "1", paramLabel = "<group_key>")
        String group;

        @Option(names = "--name", description = "display name (@path reads a file)")
        String name;

        @Option(names = "--when-to-use", description = "hint for agents (@path reads a file)")
        String whenToUse;

        /** The body of PATCH .../groups/{group_key}: only what changes. */
        @RequestBody
        record GroupChange(String name, String whenToUse) {
        }

        @Override
        protected void validate() {
            if (name == null && whenToUse == null) {
                throw CliException.usage("nothing to change: give --name or --when-to-use");
            }
        }

        @Override
        protected void execute(Session s) {
            GroupChange body = new GroupChange(TextArgs.read(name, "--name"), TextArgs.read(whenToUse, "--when-to-use"));
            send(s, "PATCH", ApiPaths.expand(ApiPaths.CONNECTOR_GROUP, id, group), body, g -> ctx.out().println(g.path("group_key").asText() + ": " + g.path("display_name").asText()
                    + " — " + g.path("when_to_use").asText()));
        }
    }

    /** edit-op */
    @Command(name = "edit-op", description = "Override one operation [tenant_admin].")
    static final class EditOp extends BackplaneCommand {
        @Parameters(index = "0", paramLabel = "<connector_id>")
        String id;

        @Parameters(index = "1", paramLabel = "<op_id>")
        String opId;

        @Option(names = "--custom-description", description = "description shown instead of the plugin's (\"\" clears; @path reads a file)")
        String customDescription;

        @ArgGroup(exclusive = true)
        EnableFlag enable;

        @ArgGroup(exclusive = true)
        ApprovalFlag approval;

        @Option(names = "--safety", paramLabel = "safe|caution|dangerous", description = "safety level")
        String safety;

        /** --enable | --disable */
        static final class EnableFlag {
            @Option(names = "--enable", required = true)
            boolean on;
            @Option(names = "--disable", required = true)
            boolean off;
        }

        /** --requires-approval | --no-requires-approval */
        static final class ApprovalFlag {
            @Option(names = "--requires-approval", required = true)
            boolean on;
            @Option(names = "--no-requires-approval", required = true)
            boolean off;
        }

        /** The body of PATCH .../operations/{op_id}: only what changes. */
        @RequestBody
        record OperationChange(String customDescription, Boolean isEnabled, Boolean requiresApproval, String safetyLevel) {
        }

        @Override
        protected void validate() {
            if (safety != null && !List.of("safe", "caution", "dangerous").contains(safety)) {
                throw CliException.usage("--safety must be safe, caution or dangerous, got '" + safety + "'");
            }
            if (customDescription == null && enable == null && approval == null && safety == null) {
                throw CliException.usage("nothing to change: give --custom-description, --enable/--disable, "
                        + "--requires-approval/--no-requires-approval or --safety");
            }
        }

        @Override
        protected void execute(Session s) {
            OperationChange body = new OperationChange(TextArgs.read(customDescription, "--custom-description"),
                    enable == null ? null : enable.on, approval == null ? null : approval.on, safety);
            send(s, "PATCH", ApiPaths.expand(ApiPaths.CONNECTOR_OPERATION, id, opId), body, op -> ctx.out().println(op.path("op_id").asText() + ": " + (op.path("is_enabled").asBoolean()
                    ? "enabled" : "disabled") + ", " + op.path("safety_level").asText() + (op.path("requires_approval")
                    .asBoolean() ? ", requires approval" : "") + " — " + op.path("description").asText()));
        }
    }

    /** catalog */
    @Command(name = "catalog", description = "The product catalog.", subcommands = {CatalogList.class})
    static final class CatalogCmd {
    }

    /** catalog list */
    @Command(name = "list", description = "Products and the connector implementations that serve them.")
    static final class CatalogList extends BackplaneCommand {
        @Override
        protected void execute(Session s) {
            get(s, ApiPaths.CATALOG, list -> {
                List<List<String>> rows = new ArrayList<>();
                for (JsonNode p : list) {
                    for (JsonNode i : p.path("implementations")) {
                        rows.add(List.of(p.path("product").asText(), String.valueOf(p.path("default_port").asInt()),
                                i.path("connector_id").asText(), String.join(" ", Json.texts(i.path("supported_versions")))));
                    }
                }
                Tables.print(ctx.out(), List.of("PRODUCT", "PORT", "CONNECTOR", "SUPPORTED VERSIONS"), rows);
            });
        }
    }

}
