package dev.backplane.cli.governance;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.CliContext;
import dev.backplane.cli.common.ConfirmOption;
import dev.backplane.cli.common.QueryString;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code svc service-principals grants create / list / revoke / show}. */
@Command(name = "service-principals", description = "Service principals.", subcommands = {
        ServicePrincipalsCommand.Grants.class})
public final class ServicePrincipalsCommand {

    /** grants */
    @Command(name = "grants", description = "Exact grants for service principals.",
            subcommands = {Create.class, ListCmd.class, Revoke.class, Show.class})
    static final class Grants {
    }

    static void print(CliContext ctx, JsonNode g) {
        ctx.out().println(g.path("id").asText() + "  " + g.path("principal").asText() + "  " + g.path("connector_id").asText()
                + " " + g.path("op_id").asText() + "  targets:"
                + (g.path("target").isNull() ? "" : " id=" + g.path("target").asText())
                + (g.path("target_name_pattern").isNull() ? "" : " name~" + g.path("target_name_pattern").asText())
                + (g.path("target_product").isNull() ? "" : " product=" + g.path("target_product").asText())
                + (g.path("expires").isNull() ? "" : "  until " + g.path("expires").asText())
                + (g.path("revoked").asBoolean() ? "  [REVOKED]" : "") + "  — " + g.path("reason").asText());
    }

    /** create */
    @Command(name = "create", description = "Grant a service principal one exact operation [tenant_admin].")
    static final class Create extends BackplaneCommand {
        @Option(names = "--principal", required = true, description = "the service principal's JWT subject")
        String principal;
        @Option(names = "--connector-id", required = true)
        String connectorId;
        @Option(names = "--op-id", required = true)
        String opId;
        @Option(names = "--reason", required = true)
        String reason;
        @Option(names = "--target", description = "target uuid")
        String target;
        @Option(names = "--target-name-pattern", description = "fnmatch over target names")
        String namePattern;
        @Option(names = "--target-product")
        String product;
        @Option(names = "--expires", description = "ISO 8601 UTC time")
        String expires;

        @Override
        protected void execute(Session s) {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("principal", principal);
            body.put("connector_id", connectorId);
            body.put("op_id", opId);
            body.put("reason", reason);
            if (target != null) {
                body.put("target", target);
            }
            if (namePattern != null) {
                body.put("target_name_pattern", namePattern);
            }
            if (product != null) {
                body.put("target_product", product);
            }
            if (expires != null) {
                body.put("expires", expires);
            }
            JsonNode g = s.client().call("POST", ApiPaths.SERVICE_GRANTS, body).json();
            print(g, () -> ServicePrincipalsCommand.print(ctx, g));
        }
    }

    /** list */
    @Command(name = "list", description = "Service grants.")
    static final class ListCmd extends BackplaneCommand {
        @Option(names = "--include-expired")
        boolean includeExpired;
        @Option(names = "--include-revoked")
        boolean includeRevoked;
        @Option(names = "--principal")
        String principal;

        @Override
        protected void execute(Session s) {
            JsonNode list = s.client().get(ApiPaths.SERVICE_GRANTS + QueryString.of().add("include_expired", includeExpired)
                    .add("include_revoked", includeRevoked).add("principal", principal)).json();
            print(list, () -> {
                if (list.isEmpty()) {
                    ctx.out().println("no service grants");
                }
                list.forEach(g -> ServicePrincipalsCommand.print(ctx, g));
            });
        }
    }

    /** revoke */
    @Command(name = "revoke", description = "Revoke a service grant [tenant_admin].")
    static final class Revoke extends BackplaneCommand {
        @Parameters(index = "0", paramLabel = "<grant-id>")
        String id;
        @Mixin
        ConfirmOption confirm;

        @Override
        protected void validate() {
            confirm.require("revoke " + id);
        }

        @Override
        protected void execute(Session s) {
            JsonNode g = s.client().call("POST", ApiPaths.expand(ApiPaths.SERVICE_GRANTS + "/{id}/revoke", id), null).json();
            print(g, () -> ServicePrincipalsCommand.print(ctx, g));
        }
    }

    /** show */
    @Command(name = "show", description = "One service grant.")
    static final class Show extends BackplaneCommand {
        @Parameters(index = "0", paramLabel = "<grant-id>")
        String id;

        @Override
        protected void execute(Session s) {
            JsonNode g = s.client().get(ApiPaths.expand(ApiPaths.SERVICE_GRANTS + "/{id}", id)).json();
            print(g, () -> ServicePrincipalsCommand.print(ctx, g));
        }
    }
}
