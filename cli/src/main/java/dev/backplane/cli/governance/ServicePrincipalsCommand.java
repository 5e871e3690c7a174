package dev.backplane.cli.governance;

import dev.backplane.cli.common.RequestBody;
import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.CliContext;
import dev.backplane.cli.common.ConfirmOption;
import dev.backplane.cli.common.QueryString;
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

        /** The body of POST /api/v1/service-principals/grants. */
        @RequestBody
        record ServiceGrant(String principal, String connectorId, String opId, String reason, String target,
                String targetNamePattern, String targetProduct, String expires) {
        }

        @Override
        protected void execute(Session s) {
            ServiceGrant body = new ServiceGrant(principal, connectorId, opId, reason, target, namePattern, product,
                    expires);
            send(s, "POST", ApiPaths.SERVICE_GRANTS, body, g -> ServicePrincipalsCommand.print(ctx, g));
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
            get(s, ApiPaths.SERVICE_GRANTS + QueryString.of().add("include_expired", includeExpired)
                    .add("include_revoked", includeRevoked).add("principal", principal), list -> {
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
            send(s, "POST", ApiPaths.expand(ApiPaths.SERVICE_GRANTS + "/{id}/revoke", id), null, g -> ServicePrincipalsCommand.print(ctx, g));
        }
    }

    /** show */
    @Command(name = "show", description = "One service grant.")
    static final class Show extends BackplaneCommand {
        @Parameters(index = "0", paramLabel = "<grant-id>")
        String id;

        @Override
        protected void execute(Session s) {
            get(s, ApiPaths.expand(ApiPaths.SERVICE_GRANTS + "/{id}", id), g -> ServicePrincipalsCommand.print(ctx, g));
        }
    }
}
