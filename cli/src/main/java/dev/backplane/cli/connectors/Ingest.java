package dev.backplane.cli.connectors;

import static dev.backplane.cli.connectors.IngestCommands.POLLER;
import static dev.backplane.cli.connectors.IngestCommands.failIfFailed;
import static dev.backplane.cli.connectors.IngestCommands.printResult;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.backplane.cli.BackplaneCommand;
import dev.backplane.cli.Session;
import dev.backplane.cli.common.ApiPaths;
import dev.backplane.cli.common.CliException;
import dev.backplane.cli.common.Http;
import dev.backplane.cli.common.RequestBody;
import dev.backplane.cli.common.Uuids;
import dev.backplane.cli.connectors.SpecUploads.SpecUpload;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code svc connector ingest} */
@Command(name = "ingest", description = {
        "Ingest a vendor API spec (OpenAPI 2.0/3.x) as connector <impl>-<version>, staged and default-deny "
                + "[tenant_admin].",
        "Catalog mode: --catalog <product>/<version> (from the backplane's catalog index).",
        "Manual mode: --product, --version, --impl and --spec (a local file, directory or archive, or an http(s) URL, read by the CLI "
                + "and uploaded; repeatable)."})
final class Ingest extends BackplaneCommand {
    @Option(names = "--catalog", paramLabel = "<product>/<version>", description = "catalog mode") String catalog;
    @Option(names = "--product", description = "product token served (manual mode)") String product;
    @Option(names = "--version", description = "version label, e.g. 23.x (manual mode)") String version;
    @Option(names = "--impl", description = "implementation id (manual mode; default: the product)")
    String impl;
    @Option(names = "--spec", paramLabel = "<file|dir|url>", description = "spec file, URL, or a multi-file spec's "
            + "directory or zip, tar or tar.gz archive; a file whose relative $refs name files beside it goes with its "
            + "directory (manual mode; repeatable)")
    List<String> specs = new ArrayList<>();
    @Option(names = "--auth-scheme", paramLabel = "<scheme>",
            description = "basic, static_header, session_login, session_login_basic, session_login_token, "
                    + "oauth2_mint (or none)")
    String authScheme;
    @Option(names = "--auth-secret-field", paramLabel = "<field>",
            description = "credential field the scheme reads, in the scheme's order (repeatable; needs --auth-scheme)")
    List<String> authSecretFields = new ArrayList<>();
    @Option(names = "--auth-setting", paramLabel = "<key=value>",
            description = "non-secret setting of the scheme, such as login_path=/token (repeatable)")
    Map<String, String> authSettings = new LinkedHashMap<>();
    @Option(names = "--spec-info-versions-compatible", paramLabel = "<glob|specifiers>",
            description = "spec info.versions compatible with the label: a glob such as 2.x or a PEP 440 "
                    + "specifier set such as '>=1.0,<2' (repeatable or comma-separated)")
    List<String> compatible = new ArrayList<>();
    @Option(names = "--default-port", description = "default port of a target of this product (manual mode; 443)")
    Integer defaultPort;
    @Option(names = "--base-path", paramLabel = "<path>",
            description = "the path every operation is sent under, in place of the spec's (e.g. /api/v1)")
    String basePath;
    @Option(names = "--dry-run", description = "write nothing; print what would be created")
    boolean dryRun;
    @Option(names = "--no-wait", description = "do not wait for a background ingest; print its job id")
    boolean noWait;
    @Option(names = "--rules", paramLabel = "<file>",
            description = "YAML or JSON rules correcting class, safety and approval: a list (or 'rules:' list) of "
                    + "{match: {op_id | operation_id | method + path glob}, op_class, safety, requires_approval, "
                    + "reason}; a bad rule or one that matches nothing refuses the ingest")
    Path rules;
    @Option(names = "--tenant-id", paramLabel = "<uuid>",
            description = "make it your tenant's own connector (default: global, which needs platform_admin)")
    String tenantId;
    /** The --rules file as read (validate), sent as the body's rules member. */
    private JsonNode ruleList;

    /** The body of POST /api/v1/connectors/ingest: catalog mode or manual mode (product, version, specs). */
    @RequestBody
    record IngestRequest(String catalog, String product, String version, String impl, List<SpecUpload> specs,
            String authScheme, List<String> authSecretFields, Map<String, String> authSettings,
            List<String> specInfoVersionsCompatible, boolean dryRun, String tenantId, Integer defaultPort,
            JsonNode rules, String basePath) {
    }

    @Override
    protected void validate() {
        boolean manual = product != null || version != null || impl != null || !specs.isEmpty();
        if ((catalog != null) == manual) {
            throw CliException.usage("give either --catalog <product>/<version> or --product, --version and "
                    + "--spec (manual mode), not both and not neither");
        }
        if (manual && (product == null || version == null || specs.isEmpty())) {
            throw CliException.usage("manual mode needs --product, --version and at least one --spec");
        }
        if (!authSecretFields.isEmpty() && authScheme == null) {
            throw CliException.usage("--auth-secret-field needs --auth-scheme");
        }
        if (tenantId != null) {
            Uuids.checked(tenantId, "--tenant-id");
        }
        if (rules != null) {
            ruleList = readRules(rules);
        }
    }

    /** The rules file: a YAML or JSON list, or a mapping whose 'rules' key holds the list (checked by the kernel). */
    static JsonNode readRules(Path file) {
        JsonNode doc;
        try {
            doc = new ObjectMapper(new YAMLFactory()).readTree(Files.readAllBytes(file));
        } catch (IOException e) {
            throw CliException.usage("--rules " + file + ": cannot read it: " + e.getMessage());
        }
        if (doc != null && doc.isObject() && doc.has("rules")) {
            doc = doc.get("rules");
        }
        if (doc == null || !doc.isArray()) {
            throw CliException.usage("--rules " + file + " must hold a list of rules (or a top-level key 'rules' "
                    + "with one): {match: {op_id | operation_id | method + path}, op_class, safety, "
                    + "requires_approval, reason}");
        }
        return doc;
    }

    @Override
    protected void execute(Session s) {
        List<SpecUpload> uploads = null;
        if (catalog == null) {
            uploads = new ArrayList<>();
            for (String spec : specs) {
                uploads.add(SpecUploads.of(spec));
            }
        }
        IngestRequest body = new IngestRequest(catalog, product, version, impl, uploads, authScheme,
                authSecretFields, authSettings, compatible, dryRun, tenantId, defaultPort, ruleList, basePath);
        Http.Response r = s.client().call("POST", ApiPaths.CONNECTORS_INGEST, body);
        JsonNode answer = r.json();
        if (r.status() != 202) {
            print(answer, () -> printResult(ctx, answer));
            return;
        }
        String jobId = answer.path("job_id").asText();
        if (noWait) {
            print(answer, () -> ctx.out().println("ingest job " + jobId + " started (" + answer.path("connector_id")
                    .asText() + "); follow it with: svc connector ingest-status " + jobId + " --wait"));
            return;
        }
        ctx.err().println("ingesting in the background as job " + jobId + " (Ctrl-C stops waiting, not the job)");
        JsonNode job = POLLER.await(s.client(), ctx.err(), jobId, null);
        finish(job);
    }

    private void finish(JsonNode job) {
        print(job, () -> {
            if (job.path("status").asText().equals("succeeded")) {
                printResult(ctx, job.path("result"));
            }
        });
        failIfFailed(job);
    }
}
