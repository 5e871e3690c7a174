package dev.backplane.ingest;

import static java.util.Objects.requireNonNull;

import dev.backplane.plugin.api.OperationDescriptor;
import dev.backplane.plugin.api.SafetyLevel;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code svc-ingest}: ingests vendor specs offline and prints what the connector would be, as a summary
 * or ({@code --json}) the whole catalog. {@link #run} is the in-process entry point tests use.
 */
@Command(name = "svc-ingest", sortOptions = false,
        description = "Build a connector catalog from vendor OpenAPI 2.0 / 3.0 / 3.1 specs, without a backplane.")
public final class IngestToolMain implements Callable<Integer> {

    /** Exit code: ingested. */
    public static final int OK = 0;
    /** Exit code: a spec was rejected (unreadable, too large, invalid, version mismatch). */
    public static final int REJECTED = 1;
    /** Exit code: bad command line. */
    public static final int USAGE = 2;

    private static final int WARNINGS_SHOWN = 20;

    private final PrintWriter out;
    private final PrintWriter err;

    @Option(names = "--spec", required = true, paramLabel = "<file|url>",
            description = "spec file, a multi-file spec's directory or zip, tar or tar.gz archive (relative $refs between "
                    + "its files followed), file: or http(s): URL (repeatable; several specs merge into one connector)")
    List<String> specs = new ArrayList<>();

    @Option(names = "--impl", required = true, paramLabel = "<impl>",
            description = "implementation id (keycloak); the first segment of every op id")
    String impl;

    @Option(names = "--version", required = true, paramLabel = "<label>", description = "version label (23.x)")
    String version;

    @Option(names = "--product", paramLabel = "<product>", description = "product token served (default: the impl)")
    String product;

    @Option(names = "--spec-info-versions-compatible", paramLabel = "<versions>",
            description = "info.versions this label serves: globs (1.x, *) or PEP 440 specifiers (>=1.0,<2); repeatable")
    List<String> compatible = new ArrayList<>();

    @Option(names = "--allow-remote-refs", description = "let $refs to other documents be fetched")
    boolean allowRemoteRefs;

    @Option(names = "--max-bytes", paramLabel = "<n>", description = "size cap per spec (default ${DEFAULT-VALUE})")
    long maxBytes = IngestOptions.DEFAULT_MAX_BYTES;

    @Option(names = "--json", description = "print the whole result (specs, groups, operations with params schemas) as JSON")
    boolean json;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help")
    boolean help;

    IngestToolMain(PrintWriter out, PrintWriter err) {
        this.out = requireNonNull(out, "out is null");
        this.err = requireNonNull(err, "err is null");
    }

    public static void main(String[] args) {
        // swagger-parser logs through SLF4J; the standalone tool ships no binding, so stay quiet on purpose
        if (System.getProperty("slf4j.provider") == null) {
            System.setProperty("slf4j.provider", "org.slf4j.helpers.NOP_FallbackServiceProvider");
            System.setProperty("slf4j.internal.verbosity", "WARN");
        }
        PrintWriter out = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
        PrintWriter err = new PrintWriter(System.err, true, StandardCharsets.UTF_8);
        System.exit(run(args, out, err));
    }

    /** Runs the command; returns {@link #OK}, {@link #REJECTED} or {@link #USAGE}. */
    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine commandLine = new CommandLine(new IngestToolMain(out, err));
        commandLine.setOut(out);
        commandLine.setErr(err);
        commandLine.setParameterExceptionHandler((e, ignored) -> {
            err.println("svc-ingest: " + e.getMessage());
            e.getCommandLine().usage(err);
            return USAGE;
        });
        commandLine.setExecutionExceptionHandler((e, ignored, parseResult) -> {
            if (e instanceof SpecIngestException rejected) {
                // only this tool can follow refs to other documents: its flag is named here, not in the message
                // the backplane answers too (which has no such flag)
                String hint = rejected.getMessage().contains("refs to other documents are only followed")
                        ? ", or let this tool follow them with --allow-remote-refs" : "";
                err.println("svc-ingest: " + rejected.reason().wireName() + ": " + rejected.getMessage() + hint);
                return REJECTED;
            }
            if (e instanceof IllegalArgumentException usage) {
                err.println("svc-ingest: " + usage.getMessage());
                return USAGE;
            }
            throw e;
        });
        int code = commandLine.execute(args);
        out.flush();
        err.flush();
        return code;
    }

    @Override
    public Integer call() {
        IngestOptions options = new IngestOptions(impl, version, product == null ? impl : product, compatible,
                maxBytes, allowRemoteRefs, progress -> { });
        IngestResult result = SpecIngester.ingest(specs.stream().map(SpecSource::of).toList(), options);
        if (json) {
            out.println(ResultJson.pretty(ResultJson.of(result, options)));
        }
        else {
            summary(result, options);
        }
        return OK;
    }

    private void summary(IngestResult result, IngestOptions options) {
        out.printf("connector  %s-%s (product %s)%n", options.implId(), options.versionLabel(), options.product());
        for (IngestResult.SpecInfo spec : result.specs()) {
            out.printf("spec       %s: %s, '%s' info.version %s, %d bytes, %d operations%n", spec.location(),
                    spec.format(), spec.title(), spec.infoVersion(), spec.bytes(), spec.operations());
        }
        out.printf("base path  %s%n", result.basePath().isEmpty() ? "(none)" : result.basePath());
        List<OperationDescriptor> operations = result.catalog().operations();
        out.printf("operations %d%n", operations.size());
        Map<String, Integer> perGroup = new LinkedHashMap<>();
        result.catalog().groups().forEach(group -> perGroup.put(group.groupKey(), 0));
        Map<SafetyLevel, Integer> perSafety = new EnumMap<>(SafetyLevel.class);
        for (OperationDescriptor op : operations) {
            perGroup.merge(op.groupKey(), 1, Integer::sum);
            perSafety.merge(op.safetyLevel(), 1, Integer::sum);
        }
        out.printf("safety     %s%n", String.join(", ", perSafety.entrySet().stream()
                .map(e -> e.getKey().wireName() + " " + e.getValue()).toList()));
        out.printf("groups     %d%n", perGroup.size());
        int width = perGroup.keySet().stream().mapToInt(String::length).max().orElse(0);
        perGroup.forEach((group, count) -> out.printf("  %-" + width + "s %5d%n", group, count));
        out.printf("warnings   %d%n", result.warnings().size());
        result.warnings().stream().limit(WARNINGS_SHOWN).forEach(warning -> out.println("  " + warning));
        if (result.warnings().size() > WARNINGS_SHOWN) {
            out.printf("  ... and %d more (--json lists them all)%n", result.warnings().size() - WARNINGS_SHOWN);
        }
    }
}
