package dev.backplane.ingest;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.backplane.ingest.IngestOptions.Progress;
import dev.backplane.ingest.SpecIngestException.Reason;
import dev.backplane.ingest.SpecParser.ParsedSpec;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/** Vendor OpenAPI 2.0 / 3.0 / 3.1 specs → one connector catalog. Stateless and thread-safe. */
public final class SpecIngester {

    private static final Pattern IMPL_ID = Pattern.compile("[a-z0-9][a-z0-9_-]*");
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final int PROGRESS_EVERY = 50;

    private SpecIngester() {
    }

    /**
     * Reads, checks and converts the specs (several specs merge into one catalog; op ids stay unique).
     *
     * @throws SpecIngestException when a spec is unreadable, too large, invalid or of an incompatible version
     * @throws IllegalArgumentException when there is no source, the impl id cannot start an op id, or the
     *     size cap is not positive
     */
    public static IngestResult ingest(List<SpecSource> sources, IngestOptions options) {
        requireNonNull(sources, "sources is null");
        requireNonNull(options, "options is null");
        if (sources.isEmpty()) {
            throw new IllegalArgumentException("no spec given");
        }
        if (!IMPL_ID.matcher(options.implId()).matches()) {
            throw new IllegalArgumentException(
                    "impl id must be lower-case letters, digits, '_' and '-' (it starts every op id): " + options.implId());
        }
        if (options.maxBytes() <= 0) {
            throw new IllegalArgumentException("maxBytes must be positive: " + options.maxBytes());
        }
        Consumer<Progress> progress = options.progress();
        List<ParsedSpec> specs = read(sources, options);

        List<String> basePaths = specs.stream().map(ParsedSpec::basePath).distinct().toList();
        String basePath = basePaths.size() == 1 ? basePaths.get(0) : "";
        List<String> warnings = new ArrayList<>();
        specs.forEach(spec -> warnings.addAll(spec.warnings()));

        CredentialReads credentialReads = new CredentialReads(options.credentialReads(), options.notCredentialReads());
        java.util.Set<String> operationKeys = new java.util.HashSet<>();
        List<SpecOperations> converters = new ArrayList<>();
        List<Map<String, Map<PathItem.HttpMethod, Operation>>> operations = new ArrayList<>();
        int total = 0;
        for (ParsedSpec spec : specs) {
            String prefix = basePaths.size() == 1 ? "" : spec.basePath();
            SpecOperations converter = new SpecOperations(spec, prefix, MAPPER, warnings::add, credentialReads);
            Map<String, Map<PathItem.HttpMethod, Operation>> ops = converter.operations();
            ops.forEach((path, methods) -> methods.keySet().forEach(m -> {
                if (!operationKeys.add(m.name() + " " + prefix + path)) {
                    warnings.add(spec.document().raw().displayName() + ": " + m.name() + " " + prefix + path
                            + " is also in an earlier spec; both are kept, the later one's op id with a suffix (_2)");
                }
            }));
            int count = ops.values().stream().mapToInt(Map::size).sum();
            if (count == 0) {
                throw new SpecIngestException(Reason.SPEC_INVALID,
                        spec.document().raw().location() + " has no operations (no GET/PUT/POST/DELETE/OPTIONS/HEAD/PATCH under paths)");
            }
            converters.add(converter);
            operations.add(ops);
            total += count;
        }

        CatalogBuilder catalog = new CatalogBuilder(options.implId());
        List<IngestResult.SpecInfo> infos = new ArrayList<>();
        int grandTotal = total;
        progress.accept(new Progress("operations", 0, grandTotal));
        for (int i = 0; i < specs.size(); i++) {
            int converted = converters.get(i).convert(operations.get(i), catalog, () -> {
                if (catalog.size() % PROGRESS_EVERY == 0) {
                    progress.accept(new Progress("operations", catalog.size(), grandTotal));
                }
            });
            SpecDocument document = specs.get(i).document();
            infos.add(new IngestResult.SpecInfo(document.raw().location(), document.format(), document.title(),
                    document.infoVersion(), document.raw().sha256(), document.raw().bytes(), converted));
        }
        warnings.addAll(credentialReads.unmatched(operationKeys));
        List<String> hosts = specs.stream().map(spec -> SpecParser.host(spec.document().tree())).filter(h -> !h.isEmpty())
                .distinct().toList();
        if (hosts.size() > 1) {
            warnings.add("the specs name different hosts (" + String.join(", ", hosts) + "); a connector's operations "
                    + "all go to its target's base URL, so merge only specs of one API");
        }
        IngestResult result = new IngestResult(infos, basePath, catalog.build(), warnings, catalog.reasons());
        progress.accept(new Progress("done", grandTotal, grandTotal));
        return result;
    }

    /** Reads every spec and checks its version before parsing any of it: a mismatch fails fast. */
    private static List<ParsedSpec> read(List<SpecSource> sources, IngestOptions options) {
        SpecReader reader = new SpecReader(options.maxBytes());
        VersionCompatibility compatibility = new VersionCompatibility(options.compatibleVersions());
        List<ParsedSpec> specs = new ArrayList<>();
        for (int i = 0; i < sources.size(); i++) {
            options.progress().accept(new Progress("reading", i, sources.size()));
            SpecDocument document = SpecDocument.of(reader.read(requireNonNull(sources.get(i), "source is null")));
            compatibility.check(document.raw().displayName(), document.infoVersion(), options.versionLabel());
            options.progress().accept(new Progress("parsing", i, sources.size()));
            specs.add(SpecParser.parse(document, options.allowRemoteRefs()));
        }
        return specs;
    }
}
