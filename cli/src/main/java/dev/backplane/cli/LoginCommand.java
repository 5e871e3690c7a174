package dev.backplane.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.backplane.cli.auth.Oidc;
import dev.backplane.cli.auth.TokenStore;
import dev.backplane.cli.auth.TokenStores;
import dev.backplane.cli.auth.Tokens;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.BackplaneClient;
import dev.backplane.cli.common.CliConfig;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.Commands;
import dev.backplane.cli.common.Contexts;
import dev.backplane.cli.common.GlobalOptions;
import dev.backplane.cli.common.Http;
import dev.backplane.cli.common.OutputOptions;
import dev.backplane.cli.common.Pause;
import dev.backplane.cli.common.ResolveOverrides;
import dev.backplane.cli.common.Urls;
import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code svc login <backplane-url>}: the OIDC device-code flow against the issuer the backplane
 * advertises; tokens go to the OS keyring or a 0600 file. {@code --client-credentials} logs a machine in instead (a
 * CI job): a confidential client's service account, its secret from {@code SVC_CLIENT_SECRET} or standard input
 * (never a flag: a flag's value shows in the process list and the shell history), the next token minted by itself.
 */
@Command(name = "login", description = {"Log in to a backplane with the device-code flow.",
        "--client-credentials logs a machine in (a CI job) with a confidential client: --client-id (or SVC_CLIENT_ID) "
                + "and its secret from SVC_CLIENT_SECRET or standard input, never a flag."})
final class LoginCommand extends CliCommand {

    @Spec CommandSpec spec;

    @Parameters(index = "0", paramLabel = "<backplane-url>", description = "the backplane to log in to")

    String backplaneUrl;

    @Option(names = "--client-id", description = "OIDC public client (default: the one the backplane advertises)")

    String clientId;

    @Option(names = "--issuer", paramLabel = "<url>", description = "OIDC issuer (default: the one the backplane advertises)")

    String issuer;

    @Option(names = "--insecure-allow-http", description = "allow plain http:// (localhost only)")

    boolean insecureAllowHttp;

    @Option(names = "--offline", description = "require an offline (long-lived) refresh token: fail unless the client "
            + "is provisioned with --cli-offline-access (by default one is asked for, and a login without it noted)")
    boolean offline;

    @Option(names = "--no-offline", description = "ask for no offline token: the login lasts as long as the identity "
            + "provider's session")
    boolean noOffline;

    @Option(names = "--print-token", description = "print only the access token on stdout") boolean printToken;

    @Option(names = "--client-credentials", description = "log a machine in with a confidential client's service "
            + "account (client credentials): --client-id or SVC_CLIENT_ID, the secret from SVC_CLIENT_SECRET or "
            + "standard input; the CLI mints the next token itself")
    boolean clientCredentials;

    @Mixin OutputOptions output;

    @Option(names = "--resolve", paramLabel = "host:port:ip", description = "resolve host:port to ip (repeatable)")

    List<String> resolve = new ArrayList<>();

    @Option(names = "--scope", paramLabel = "<scope>", split = ",",
            description = "scopes to request (default openid; repeat or comma-separate)")
    List<String> scopes = new ArrayList<>();

    /** What {@code --json} prints after a login for svc commands. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record LoggedIn(String backplane, String context, String issuer, String clientId, boolean stored, String tokenStore,
                    boolean offline, JsonNode whoami) {
    }

    /** What {@code --json} prints after a login for MCP clients: the token was not stored. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record McpLoggedIn(String backplane, String mcp, String clientId, String username, String audience, boolean stored) {
    }

    @Override
    public void run() {
        GlobalOptions global = Commands.global(spec);
        if (printToken && output.json()) {
            throw CliException.usage("--print-token prints only the token; it takes no --json or -o "
                    + output.format().label());
        }
        if (offline && noOffline) {
            throw CliException.usage("--offline and --no-offline contradict each other");
        }
        String secret = clientCredentials ? clientSecret() : null;
        List<ResolveOverrides.Entry> entries = resolve.stream().map(ResolveOverrides::parse).toList();
        ResolveOverrides.install(entries);
        URI backplane = Urls.checkedBase(backplaneUrl, "backplane URL", insecureAllowHttp);
        Optional<String> askedContext = Optional.ofNullable(global.context()).or(() -> ctx.env("SVC_CONTEXT"))
                .map(String::trim);
        askedContext.ifPresent(name -> {
            Contexts.checkName(name);
            CliConfig config = CliConfig.load(global.configFile(ctx));
            config.context(name).filter(c -> !c.backplane().equals(backplane.toString())).ifPresent(c -> {
                throw CliException.usage("context '" + name + "' is for " + c.backplane() + "; pick another name, or "
                        + "svc context delete " + name + " first");
            });
        });
        try (Http http = new Http(null, ctx.err(), global.verbose())) {
            JsonNode info = new BackplaneClient(backplane, http, () -> "", Optional.empty(),
                    dev.backplane.cli.common.ApiLevels.of(ctx))
                    .getPublic(ApiPaths.INFO).json();
            String issuerUrl = Optional.ofNullable(issuer).orElse(info.path("issuer").asText(""));
            String client = Optional.ofNullable(clientId)
                    .or(() -> clientCredentials ? ctx.env("SVC_CLIENT_ID") : Optional.empty())
                    .orElse(clientCredentials ? "" : info.path("cli_client_id").asText(""));
            if (clientCredentials && client.isEmpty()) {
                throw CliException.usage("--client-credentials needs the confidential client: --client-id or "
                        + "SVC_CLIENT_ID");
            }
            if (issuerUrl.isEmpty() || client.isEmpty()) {
                throw CliException.failed(backplane + " does not advertise an issuer and client; pass --issuer and --client-id");
            }
            URI issuerUri = Urls.checkedBase(issuerUrl, "issuer", insecureAllowHttp);
            Oidc oidc = new Oidc(http);
            Oidc.Endpoints endpoints = oidc.discover(issuerUri);
            String scope = String.join(" ", scopes());
            Tokens tokens;
            if (clientCredentials) {
                tokens = oidc.clientCredentials(endpoints.token(), client, secret, scope);
            } else {
                Oidc.DeviceCode code;
                try {
                    code = oidc.startDeviceLogin(endpoints, client, scope);
                } catch (Oidc.OfflineNotProvisioned e) {
                    if (offline) {
                        throw e; // asked for explicitly
                    }
                    // by default an offline token is asked for; a client without offline access gets a session login
                    scope = String.join(" ", scopes(false));
                    code = oidc.startDeviceLogin(endpoints, client, scope);
                }
                ctx.err().println("To log in, open this address in a browser and approve the request:");
                ctx.err().println("  " + (code.verificationUriComplete().isEmpty() ? code.verificationUri()
                        : code.verificationUriComplete()));
                ctx.err().println("  code: " + code.userCode() + "   (waiting for approval...)");
                ctx.err().flush();
                tokens = oidc.awaitDeviceLogin(endpoints, client, code,
                        d -> Pause.sleep(d, "interrupted while waiting for the login"));
            }
            if (offline && !tokens.offline()) {
                throw CliException.failed("the identity provider did not grant offline access to client '" + client
                        + "'; the deployer must run `svc admin idp bootstrap-clients --cli-offline-access`");
            }
            if (!tokens.offline() && !clientCredentials && !noOffline
                    && client.equals(info.path("cli_client_id").asText(""))) {
                ctx.err().println("note: client '" + client + "' has no offline access, so this login lasts as long as "
                        + "your identity-provider session (the deployer's svc admin idp bootstrap-clients "
                        + "--cli-offline-access makes it last days)");
            }
            List<String> audiences = audiences(tokens.accessToken());
            String backplaneAudience = info.path("audience").asText("");
            String mcpAudience = info.path("mcp_audience").asText("");
            if (!backplaneAudience.isEmpty() && !audiences.contains(backplaneAudience)) {
                // not a token for svc commands (e.g. --client-id svc-mcp): never stored in place of the CLI's login
                mcpLogin(backplane, http, tokens, client, audiences, backplaneAudience, mcpAudience);
                return;
            }
            CliConfig config = CliConfig.load(global.configFile(ctx));
            String url = backplane.toString();
            String contextName = askedContext.orElseGet(() -> config.nameFor(url));
            CliConfig.Context context = config.context(contextName).orElseGet(() -> new CliConfig.Context(url,
                    config.identityShared(contextName, url) ? url + "#" + contextName : url, null, null));
            TokenStore store = TokenStores.select(ctx);
            store.save(context.identity(), tokens);
            config.remember(url, new CliConfig.Backplane(issuerUri.toString(), client,
                    endpoints.token().toString(), resolve, insecureAllowHttp));
            config.putContext(contextName, context);
            config.use(contextName);
            config.save(global.configFile(ctx));
            if (printToken) {
                ctx.out().println(tokens.accessToken());
                return;
            }
            JsonNode me = new BackplaneClient(backplane, http, tokens::accessToken, Optional.empty())
                    .get(ApiPaths.WHOAMI).json();
            if (output.json()) {
                output.print(ctx.out(), Http.JSON.valueToTree(new LoggedIn(url, contextName, issuerUri.toString(),
                        client, true, store.describe(), tokens.offline(), me)));
                return;
            }
            ctx.out().println("Logged in to " + backplane + " as " + me.path("username").asText(me.path("sub").asText())
                    + " (tenant " + me.path("tenant_id").asText() + ", role " + me.path("tenant_role").asText()
                    + (me.path("platform_admin").asBoolean() ? ", platform_admin" : "") + ")"
                    + (tokens.clientCredentials() ? " with client credentials (the next token is minted when this one "
                    + "expires)" : tokens.offline() ? " with an offline token" : "") + "; tokens stored in "
                    + store.describe() + "; context " + contextName);
        }
    }

    /**
     * A token for the MCP audience (the MCP client's device flow): checked against {@code /mcp} with a
     * ping, printed with {@code --print-token}, and not stored — svc commands need the backplane audience.
     */
    private void mcpLogin(URI backplane, Http http, Tokens tokens, String client, List<String> audiences,
                          String backplaneAudience, String mcpAudience) {
        if (mcpAudience.isEmpty() || !audiences.contains(mcpAudience)) {
            throw CliException.failed("client '" + client + "' issued a token for audience " + audiences
                    + ", which this backplane accepts nowhere: svc commands need audience '" + backplaneAudience
                    + "'" + (mcpAudience.isEmpty() ? "" : ", /mcp needs '" + mcpAudience + "'")
                    + "; the deployer's svc admin idp bootstrap-clients sets the clients' audiences");
        }
        new BackplaneClient(backplane, http, tokens::accessToken, Optional.empty())
                .call("POST", "/mcp", Map.of("jsonrpc", "2.0", "id", 1, "method", "ping"));
        if (printToken) {
            ctx.out().println(tokens.accessToken());
            return;
        }
        if (output.json()) {
            output.print(ctx.out(), Http.JSON.valueToTree(new McpLoggedIn(backplane.toString(), backplane + "/mcp",
                    client, claim(tokens.accessToken(), "preferred_username"), mcpAudience, false)));
            return;
        }
        ctx.out().println("Logged in to " + backplane + "/mcp as " + claim(tokens.accessToken(),
                "preferred_username") + " with client " + client + ": the token is for MCP clients (audience "
                + mcpAudience + "), not for svc commands, so it was not stored and your svc login is unchanged. "
                + "Hand it to an MCP client with: svc login " + backplane
                + (insecureAllowHttp ? " --insecure-allow-http" : "") + " --client-id " + client
                + " --scope " + String.join(",", scopes()) + " --print-token");
    }

    /** The token's {@code aud} claim, read without verifying: the backplane verifies; this only picks the check. */
    private static List<String> audiences(String accessToken) {
        JsonNode aud = payload(accessToken).path("aud");
        List<String> out = new ArrayList<>();
        if (aud.isArray()) {
            aud.forEach(a -> out.add(a.asText()));
        } else if (aud.isTextual()) {
            out.add(aud.asText());
        }
        return out;
    }

    private static String claim(String accessToken, String name) {
        JsonNode payload = payload(accessToken);
        return payload.path(name).asText(payload.path("sub").asText("?"));
    }

    private static JsonNode payload(String jwt) {
        String[] parts = jwt.split("\\.");
        if (parts.length < 2) {
            return Http.JSON.createObjectNode();
        }
        try {
            return Http.JSON.readTree(java.util.Base64.getUrlDecoder().decode(parts[1]));
        } catch (IllegalArgumentException | java.io.IOException e) {
            return Http.JSON.createObjectNode();
        }
    }

    /** The client secret: SVC_CLIENT_SECRET, else the first line of standard input; never a flag. */
    private String clientSecret() {
        if (offline) {
            throw CliException.usage("--offline is for a person's login; a client-credentials login mints its next "
                    + "token itself");
        }
        String secret = ctx.env("SVC_CLIENT_SECRET").orElseGet(() -> {
            try {
                String in = new String(ctx.in().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
                return in.lines().findFirst().orElse("").strip();
            } catch (java.io.IOException e) {
                throw CliException.failed("cannot read standard input: " + e.getMessage());
            }
        });
        if (secret.isBlank()) {
            throw CliException.usage("--client-credentials needs the client's secret in SVC_CLIENT_SECRET or on "
                    + "standard input (never as a flag)");
        }
        return secret;
    }

    /** The scopes asked for: offline_access unless --no-offline (or a client-credentials login, which has none). */
    private List<String> scopes() {
        return scopes(!noOffline && !clientCredentials);
    }

    private List<String> scopes(boolean withOffline) {
        Set<String> all = new LinkedHashSet<>();
        if (scopes.isEmpty()) {
            all.add("openid");
        }
        scopes.forEach(s -> Arrays.stream(s.trim().split("\\s+")).filter(x -> !x.isEmpty()).forEach(all::add));
        if (withOffline) {
            all.add("offline_access");
        } else {
            all.remove("offline_access");
        }
        return List.copyOf(all);
    }
}
