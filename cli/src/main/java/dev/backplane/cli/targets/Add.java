package dev.backplane.cli.targets;

import static dev.backplane.cli.targets.TargetsCommand.pem;
import static dev.backplane.cli.targets.TargetsCommand.printTarget;

import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.RequestBody;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code svc targets add} (alias create) [tenant_admin] */
@Command(name = "add", aliases = "create", description = "Register a target [tenant_admin].")
final class Add extends BackplaneCommand {
    @Parameters(index = "0", paramLabel = "<name>") String name;
    @Option(names = "--host", required = true, description = "host or IP the connector dials") String host;
    @Option(names = "--product", required = true, description = "exact product token (e.g. k8s)") String product;
    @Option(names = "--alias", description = "another name for the target (repeatable)")
    List<String> aliases = new ArrayList<>();
    @Option(names = "--auth-model", description = "default shared_service_account") String authModel;
    @Option(names = "--fqdn") String fqdn;
    @Option(names = "--note", description = "free-form notes") String note;
    @Option(names = "--port") Integer port;
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
    @Option(names = "--version", description = "asserted product version (used before the first probe)") String version;
    @Option(names = "--extras", paramLabel = "<key=value>", description = "connector-specific setting kept in the "
            + "target's extras, a string value (repeatable), e.g. --extras scheme=http for a plain-HTTP target of an "
            + "ingested connector")
    Map<String, String> extras = new LinkedHashMap<>();

    /** The body of POST /api/v1/targets; what is not given is left to the backplane's defaults. */
    @RequestBody
    record NewTarget(String name, String product, String host, List<String> aliases, String authModel, String fqdn,
            String notes, Integer port, String preferredImplId, String secretRef, String tlsCaPin,
            String tlsServerName, Boolean verifyTls, String version, Map<String, String> extras) {
    }

    @Override
    protected void validate() {
        if (port != null && (port < 1 || port > 65535)) {
            throw CliException.usage("--port must be 1..65535, got " + port);
        }
        if (Boolean.FALSE.equals(verifyTls) && tlsCaPin != null) {
            throw CliException.usage("--verify-tls=false and --tls-ca-pin are mutually exclusive");
        }
        extras.keySet().stream().filter(String::isBlank).findFirst().ifPresent(k -> {
            throw CliException.usage("--extras needs a key before '=', e.g. --extras scheme=http");
        });
    }

    @Override
    protected void execute(Session s) {
        NewTarget body = new NewTarget(name, product, host, aliases.isEmpty() ? null : aliases, authModel, fqdn, note,
                port, preferredImpl, secretRef, pem(tlsCaPin), tlsServerName, verifyTls, version,
                extras.isEmpty() ? null : extras);
        send(s, "POST", ApiPaths.TARGETS, body, t -> {
            ctx.out().println("registered target " + t.path("name").asText());
            printTarget(ctx, t);
        });
    }
}
