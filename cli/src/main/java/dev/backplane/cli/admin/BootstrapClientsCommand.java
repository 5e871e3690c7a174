package dev.backplane.cli.admin;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.backplane.cli.CliCommand;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.Commands;
import dev.backplane.cli.common.Http;
import dev.backplane.cli.common.OutputOptions;
import dev.backplane.cli.common.Urls;
import dev.backplane.cli.common.Uuids;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code svc admin idp bootstrap-clients}: provisions the realm side of the backplane in Keycloak,
 * idempotently. The administrator password comes from {@code KEYCLOAK_ADMIN_PASSWORD} or standard
 * input, never from a flag; a provisioned user's initial password from {@code SVC_BOOTSTRAP_USER_PASSWORD}
 * or is generated and printed once.
 */
@Command(name = "bootstrap-clients", description = "Provision the CLI, MCP and console clients, claim mappers and an "
        + "optional first user in a Keycloak realm (idempotent).")
public final class BootstrapClientsCommand extends CliCommand {

    static final int DEFAULT_OFFLINE_IDLE_SECONDS = 172800;

    @Spec CommandSpec spec;

    @Option(names = "--keycloak-base-url", paramLabel = "<url>", defaultValue = "http://127.0.0.1:8180",
            description = "Keycloak base URL (default ${DEFAULT-VALUE})")
    String keycloakBaseUrl;

    @Option(names = "--realm", defaultValue = "svc", description = "realm to provision (default ${DEFAULT-VALUE}; never master)")
    String realm;

    @Option(names = "--admin-username", paramLabel = "<name>",
            description = "Keycloak administrator (or env KEYCLOAK_ADMIN_USER); password from env "
                    + "KEYCLOAK_ADMIN_PASSWORD or standard input")
    String adminUsername;

    @Option(names = "--backplane-audience", defaultValue = "svc-backplane",
            description = "audience of backplane tokens (default ${DEFAULT-VALUE})")
    String backplaneAudience;

    @Option(names = "--cli-client-id", defaultValue = "svc-cli", description = "CLI public client (default ${DEFAULT-VALUE})")
    String cliClientId;

    @Option(names = "--cli-offline-access", arity = "0..1", paramLabel = "seconds",
            fallbackValue = "" + DEFAULT_OFFLINE_IDLE_SECONDS,
            description = "allow svc login --offline, with this offline idle bound (bare flag: 172800)")
    Integer cliOfflineAccess;

    @Option(names = "--mcp-client-id", defaultValue = "svc-mcp", description = "MCP public client (default ${DEFAULT-VALUE})")
    String mcpClientId;

    @Option(names = "--mcp-redirect-uri", defaultValue = "http://127.0.0.1/*",
            description = "MCP client redirect URI (default ${DEFAULT-VALUE})")
    String mcpRedirectUri;

    @Option(names = "--mcp-resource-uri", defaultValue = "http://127.0.0.1:8080/mcp",
            description = "MCP resource audience, no trailing slash (default ${DEFAULT-VALUE})")
    String mcpResourceUri;

    @Option(names = "--mcp-web-origin", defaultValue = "+",
            description = "MCP client web origin (default ${DEFAULT-VALUE}: the redirect URI's origin)")
    String mcpWebOrigin;

    @Option(names = "--console-client-id", defaultValue = "svc-console",
            description = "web console public client (default ${DEFAULT-VALUE})")
    String consoleClientId;

    @Option(names = "--console-url", paramLabel = "<url>", defaultValue = "http://127.0.0.1:8080",
            description = "the backplane's public URL; the console client may redirect only to <url>/ui/callback "
                    + "(default ${DEFAULT-VALUE})")
    String consoleUrl;

    @Option(names = "--admin-user-username", paramLabel = "<name>",
            description = "first user to provision (required unless --skip-user-provisioning)")
    String userUsername;

    @Option(names = "--admin-user-email", paramLabel = "<email>", description = "the provisioned user's email")

    String userEmail;

    @Option(names = "--admin-group-name", paramLabel = "<group>", description = "group to create and put the user in")

    String groupName;

    @Option(names = "--tenant-id", paramLabel = "<uuid>", description = "the user's tenant (default: keep, or a new uuid)")

    String tenantId;

    @Option(names = "--tenant-role", paramLabel = "<role>",
            description = "the user's role: tenant_admin, operator or read_only (default: keep, or tenant_admin)")
    String tenantRole;

    @Option(names = "--skip-user-provisioning", description = "provision no user") boolean skipUser;

    @Option(names = "--reader-client-id", paramLabel = "<client-id>", description = "also a confidential client "
            + "whose service account may read this realm through the admin API (realm-management view-realm, "
            + "view-users, view-clients, query-groups): the credential of a backplane target for this Keycloak. "
            + "Its secret from env SVC_BOOTSTRAP_READER_SECRET")
    String readerClientId;

    @Option(names = "--setup-client-id", paramLabel = "<client-id>", description = "also a confidential client "
            + "whose service account is a tenant_admin of --tenant-id on the backplane (client-credentials tokens "
            + "with the backplane audience), for scripted setup. Its secret from env SVC_BOOTSTRAP_SETUP_SECRET")
    String setupClientId;

    @Option(names = "--dry-run", description = "print the plan and write nothing") boolean dryRun;

    @ArgGroup(exclusive = true, multiplicity = "0..1") Tls tls;

    @Mixin OutputOptions output;

    /** TLS trust toward Keycloak: a CA bundle, or no verification at all. */
    static final class Tls {
        @Option(names = "--keycloak-ca-bundle", paramLabel = "<pem-file>", required = true,
                description = "trust Keycloak's certificate through these CAs")
        Path caBundle;

        @Option(names = "--insecure-skip-tls-verify", required = true,
                description = "do not verify Keycloak's certificate (testing only)")
        boolean skipVerify;
    }

    @Override
    public void run() {
        BootstrapSpec bootstrap = validatedSpec();
        URI base = Urls.checkedBase(keycloakBaseUrl, "--keycloak-base-url", true);
        String admin = Optional.ofNullable(adminUsername).or(() -> ctx.env("KEYCLOAK_ADMIN_USER"))
                .orElseThrow(() -> CliException.usage("name the Keycloak administrator with --admin-username "
                        + "or KEYCLOAK_ADMIN_USER"));
        String password = ctx.env("KEYCLOAK_ADMIN_PASSWORD").orElseGet(this::passwordFromStdin);
        try (Http http = new Http(sslContext(), ctx.err(), Commands.global(spec).verbose())) {
            KeycloakAdmin kc = KeycloakAdmin.login(http, base, admin, password);
            KeycloakBootstrap.Outcome outcome = new KeycloakBootstrap(kc, bootstrap, dryRun).run();
            report(base, outcome);
        }
    }

    private BootstrapSpec validatedSpec() {
        if (realm.isBlank() || realm.equalsIgnoreCase("master")) {
            throw CliException.usage("--realm must name the backplane's own realm, not master");
        }
        if (mcpResourceUri.endsWith("/")) {
            throw CliException.usage("--mcp-resource-uri must not end with '/': " + mcpResourceUri);
        }
        Urls.checkedBase(consoleUrl, "--console-url", true);
        if (cliOfflineAccess != null && cliOfflineAccess <= 0) {
            throw CliException.usage("--cli-offline-access must be a positive number of seconds");
        }
        if (tenantRole != null && !List.of("tenant_admin", "operator", "read_only").contains(tenantRole)) {
            throw CliException.usage("--tenant-role must be tenant_admin, operator or read_only, got '" + tenantRole + "'");
        }
        if (tenantId != null) {
            tenantId = Uuids.checked(tenantId, "--tenant-id");
        }
        Optional<BootstrapSpec.UserSpec> user = Optional.empty();
        if (skipUser) {
            if (userUsername != null || userEmail != null || groupName != null) {
                throw CliException.usage("--skip-user-provisioning cannot be combined with --admin-user-* or "
                        + "--admin-group-name");
            }
        } else {
            if (userUsername == null || userUsername.isBlank()) {
                throw CliException.usage("--admin-user-username is required (or pass --skip-user-provisioning)");
            }
            user = Optional.of(new BootstrapSpec.UserSpec(userUsername.trim(), Optional.ofNullable(userEmail),
                    Optional.ofNullable(tenantId), Optional.ofNullable(tenantRole), Optional.ofNullable(groupName),
                    ctx.env("SVC_BOOTSTRAP_USER_PASSWORD")));
        }
        if (setupClientId != null && tenantId == null) {
            throw CliException.usage("--setup-client-id needs --tenant-id: the tenant its service account administers");
        }
        return new BootstrapSpec(realm, backplaneAudience, cliClientId,
                cliOfflineAccess == null ? OptionalInt.empty() : OptionalInt.of(cliOfflineAccess),
                mcpClientId, mcpRedirectUri, mcpWebOrigin, mcpResourceUri, user,
                serviceClient(readerClientId, "--reader-client-id", "SVC_BOOTSTRAP_READER_SECRET"),
                serviceClient(setupClientId, "--setup-client-id", "SVC_BOOTSTRAP_SETUP_SECRET"),
                Optional.ofNullable(tenantId), consoleClientId, consoleUrl.replaceAll("/+$", ""));
    }

    private Optional<BootstrapSpec.ServiceClient> serviceClient(String clientId, String flag, String secretEnv) {
        if (clientId == null) {
            return Optional.empty();
        }
        if (clientId.isBlank() || List.of(cliClientId, mcpClientId, consoleClientId).contains(clientId)) {
            throw CliException.usage(flag + " must name a client of its own, not the CLI, MCP or console client");
        }
        String secret = ctx.env(secretEnv).filter(s -> !s.isBlank()).orElseThrow(() -> CliException.usage(
                flag + " needs its client secret in env " + secretEnv + " (never a flag)"));
        if (secret.length() < 16) {
            throw CliException.usage(secretEnv + " must be at least 16 characters");
        }
        return Optional.of(new BootstrapSpec.ServiceClient(clientId.trim(), secret));
    }

    private void report(URI base, KeycloakBootstrap.Outcome outcome) {
        if (output.json()) {
            ObjectNode doc = Http.JSON.createObjectNode();
            doc.put("keycloak", base.toString());
            doc.put("realm", realm);
            doc.put("dry_run", dryRun);
            doc.put("applied", !dryRun && !outcome.changes().isEmpty());
            ArrayNode changes = doc.putArray("changes");
            outcome.changes().forEach(changes::add);
            doc.put("user", userUsername);
            doc.put("tenant_id", outcome.tenantId().orElse(null));
            // the only time it can be read, as in the human report; never part of a dry run's plan
            doc.put("initial_password", dryRun ? null : outcome.generatedPassword().orElse(null));
            output.print(ctx.out(), doc);
            return;
        }
        String where = "realm '" + realm + "' at " + base;
        if (outcome.changes().isEmpty()) {
            ctx.out().println("Nothing to change: " + where + " is already bootstrapped.");
        } else {
            outcome.changes().forEach(c -> ctx.out().println((dryRun ? "would " : "") + c));
            ctx.out().println(dryRun ? "Dry run: " + outcome.changes().size() + " change(s) planned for " + where
                    + "; nothing was written." : "Applied " + outcome.changes().size() + " change(s) to " + where + ".");
        }
        outcome.tenantId().ifPresent(t -> ctx.out().println("user " + userUsername + " is in tenant " + t));
        if (!dryRun) {
            outcome.generatedPassword().ifPresent(p -> ctx.out().println("initial password of " + userUsername + ": "
                    + p + "  (shown once; change it in Keycloak)"));
        }
    }

    private String passwordFromStdin() {
        try {
            ctx.err().println("Keycloak administrator password (end with Enter):");
            ctx.err().flush();
            String line = new BufferedReader(new InputStreamReader(ctx.in(), StandardCharsets.UTF_8)).readLine();
            if (line == null || line.isEmpty()) {
                throw CliException.usage("no administrator password: set KEYCLOAK_ADMIN_PASSWORD or pipe it on stdin");
            }
            return line;
        } catch (IOException e) {
            throw CliException.failed("cannot read the password from stdin: " + e.getMessage());
        }
    }

    private SSLContext sslContext() {
        if (tls == null) {
            return null;
        }
        try {
            SSLContext ssl = SSLContext.getInstance("TLS");
            if (tls.skipVerify) {
                ctx.err().println("warning: --insecure-skip-tls-verify: Keycloak's certificate is not checked");
                System.setProperty("jdk.internal.httpclient.disableHostnameVerification", "true");
                ssl.init(null, new TrustManager[] {new TrustAll()}, new SecureRandom());
                return ssl;
            }
            KeyStore ks = KeyStore.getInstance(KeyStore.getDefaultType());
            ks.load(null, null);
            Collection<? extends Certificate> certs;
            try (InputStream in = Files.newInputStream(tls.caBundle)) {
                certs = CertificateFactory.getInstance("X.509").generateCertificates(in);
            }
            if (certs.isEmpty()) {
                throw CliException.usage("--keycloak-ca-bundle " + tls.caBundle + " holds no PEM certificate");
            }
            int i = 0;
            for (Certificate c : certs) {
                ks.setCertificateEntry("ca-" + i++, c);
            }
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(ks);
            ssl.init(null, tmf.getTrustManagers(), new SecureRandom());
            return ssl;
        } catch (IOException e) {
            throw CliException.usage("cannot read --keycloak-ca-bundle " + tls.caBundle + ": " + e.getMessage());
        } catch (GeneralSecurityException e) {
            throw CliException.usage("--keycloak-ca-bundle " + tls.caBundle + " is not a PEM CA bundle: " + e.getMessage());
        }
    }

    /** Accepts any certificate: only behind --insecure-skip-tls-verify. */
    private static final class TrustAll implements X509TrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
