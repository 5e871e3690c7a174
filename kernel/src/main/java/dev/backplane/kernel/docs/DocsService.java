package dev.backplane.kernel.docs;

import dev.backplane.kernel.audit.AuditClass;
import dev.backplane.kernel.audit.AuditLog;
import dev.backplane.kernel.credentials.CredentialService;
import dev.backplane.kernel.egress.EgressProxy;
import dev.backplane.kernel.egress.SsrfGuard;
import dev.backplane.kernel.errors.CommonErrors;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.errors.ErrorKind;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.util.Digests;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;

/**
 * The docs add-on (experimental): grounded search and answers over external retrieval services.
 * A query must name its collections ({@code all} fans out over every enabled collection the
 * tenant holds the capability for); the passages of several collections are merged by reciprocal
 * rank fusion. Every search and ask writes one audit row ({@code svc.docs.search} /
 * {@code svc.docs.ask}, op_class read) holding the query only as a SHA-256 hash.
 */
public final class DocsService {

    static final int SEARCH_MAX = 50;
    static final int SEARCH_DEFAULT = 10;
    static final int MAX_QUERY_CHARS = 4_000;

    /** A docs query: the text, the collections named (or 'all'), and the optional filters passed through. */
    public record Query(String query, List<String> collections, Optional<Integer> limit, Optional<String> product,
                        Optional<String> version) {
    }

    /** A collection of a fan-out that failed while others answered. */
    public record Failure(String collection, String errorCode, String message) {
    }

    /** SearchDocsResponse: ranked chunks with citations; {@code failed} lists collections that did not answer. */
    public record SearchDocsResponse(List<String> collections, List<DocsChunk> chunks, List<Failure> failed) {
    }

    /** An answer with the sources its [n] markers resolve to, or the deterministic 'no grounded answer'. */
    public record AskDocsResponse(String answer, boolean grounded, List<GroundedAnswer.Source> sources,
                                  List<String> collections, List<Failure> failed) {
    }

    /** What a probe saw. */
    public record Probe(String collection, boolean ok, long latencyMs, int chunks) {
    }

    private final DocCollections collections;
    private final DocsCapabilities capabilities;
    private final AuditLog audit;

    public DocsService(DocCollections collections, DocsCapabilities capabilities, AuditLog audit) {
        this.collections = collections;
        this.capabilities = capabilities;
        this.audit = audit;
    }

    /** The service as the kernel wires it: corpus-http spoken through the egress proxy, checked by the SSRF guard. */
    public static DocsService create(Jdbc jdbc, AuditLog audit, EgressProxy egress, SsrfGuard ssrf,
                                     CredentialService credentials, Duration backendTimeout) {
        DocsCapabilities capabilities = new DocsCapabilities(jdbc);
        DocsBackend corpus = new CorpusHttpBackend(egress, ssrf, credentials, backendTimeout);
        return new DocsService(new DocCollections(jdbc, Map.of(corpus.type(), corpus), capabilities), capabilities, audit);
    }

    public DocCollections collections() {
        return collections;
    }

    public DocsCapabilities capabilities() {
        return capabilities;
    }

    public SearchDocsResponse search(Caller c, Query q, String surface) {
        return audited(c, "svc.docs.search", q, surface, targets -> {
            DocsFanOut.Retrieved r = DocsFanOut.retrieve(collections, targets, request(q));
            return new SearchDocsResponse(keys(targets), r.chunks(), r.failed());
        });
    }

    public AskDocsResponse ask(Caller c, Query q, String surface) {
        return audited(c, "svc.docs.ask", q, surface, targets -> {
            DocsFanOut.Retrieved r = DocsFanOut.retrieve(collections, targets, request(q));
            GroundedAnswer.Answer a = GroundedAnswer.answer(q.query(), r.chunks());
            return new AskDocsResponse(a.answer(), a.grounded(), a.sources(), keys(targets), r.failed());
        });
    }

    /** Asks the backend one small question and reports whether it answered by the contract. */
    public Probe probe(Caller c, String key) {
        DocCollection d = collections.visible(c.tenantId(), key);
        if (!(c.platformAdmin() || capabilities.holds(c.tenantId(), d))) {
            throw DocCollections.capabilityRequired(key);
        }
        // the probe contacts the backend (with its token, if any): audited like a docs query
        AuditLog.Entry entry = AuditLog.Entry.by(c, AuditClass.READ, "svc.docs.probe");
        long t0 = System.nanoTime();
        UUID row = audit.begin(entry, Map.of("collections", List.of(key)));
        try {
            int n = collections.backend(d).retrieve(d, new DocsBackend.Request("probe", 1, Optional.empty(),
                    Optional.empty())).size();
            audit.finish(row, "ok", Optional.empty(), Duration.ofNanos(System.nanoTime() - t0).toMillis());
            return new Probe(key, true, Duration.ofNanos(System.nanoTime() - t0).toMillis(), n);
        } catch (DomainException e) {
            audit.finish(row, "error", Optional.of(e.code()), Duration.ofNanos(System.nanoTime() - t0).toMillis());
            throw e;
        }
    }

    private <T> T audited(Caller c, String opId, Query q, String surface, Function<List<DocCollection>, T> body) {
        String text = q.query() == null ? "" : q.query();
        Map<String, Object> extras = new LinkedHashMap<>();
        extras.put("query_sha256", Digests.sha256Hex(text));
        extras.put("collections", q.collections() == null ? List.of() : q.collections());
        extras.put("surface", surface);
        q.limit().ifPresent(l -> extras.put("limit", l));
        q.product().ifPresent(p -> extras.put("product", p));
        q.version().ifPresent(v -> extras.put("version", v));
        // in the caller's session (an agent run's, an MCP client's) like every other row its tool calls write
        AuditLog.Entry entry = AuditLog.Entry.by(c, AuditClass.READ, opId).paramsHash(Digests.sha256Hex(text));
        List<DocCollection> targets;
        try {
            validate(q);
            targets = resolve(c.tenantId(), q);
        } catch (DomainException refused) {
            audit.record(entry, refused.kind() == ErrorKind.FORBIDDEN ? "denied" : "error", Optional.of(refused.code()),
                    Optional.empty(), extras);
            throw refused;
        }
        extras.put("collections", keys(targets));
        long t0 = System.nanoTime();
        UUID row = audit.begin(entry, extras);
        try {
            T out = body.apply(targets);
            audit.finish(row, "ok", Optional.empty(), Duration.ofNanos(System.nanoTime() - t0).toMillis());
            return out;
        } catch (DomainException e) {
            audit.finish(row, "error", Optional.of(e.code()), Duration.ofNanos(System.nanoTime() - t0).toMillis());
            throw e;
        }
    }

    private static void validate(Query q) {
        if (q.query() == null || q.query().isBlank()) {
            throw CommonErrors.INVALID_QUERY.error("query is empty", Map.of("field", "query"));
        }
        if (q.query().length() > MAX_QUERY_CHARS) {
            throw CommonErrors.INVALID_QUERY.error("query exceeds " + MAX_QUERY_CHARS + " characters",
                    Map.of("field", "query"));
        }
        if (q.collections() == null || q.collections().stream().allMatch(k -> k == null || k.isBlank())) {
            throw DocsErrors.COLLECTION_REQUIRED.error("a docs query must name a collection: one or more "
                    + "collection keys, or 'all' for every collection this tenant may search (unscoped queries are "
                    + "refused)", Map.of("field", "collection"));
        }
        int limit = q.limit().orElse(SEARCH_DEFAULT);
        if (limit < 1 || limit > SEARCH_MAX) {
            throw CommonErrors.INVALID_LIMIT.error("limit must be 1.." + SEARCH_MAX, Map.of("field", "limit"));
        }
    }

    /** The named collections (each checked), or with 'all' every searchable one (declaring the product, if given). */
    private List<DocCollection> resolve(UUID tenant, Query q) {
        Map<String, DocCollection> out = new LinkedHashMap<>();
        for (String key : q.collections()) {
            if (key == null || key.isBlank()) {
                continue;
            }
            if (key.strip().equals(DocCollections.ALL)) {
                collections.searchable(tenant).stream()
                        .filter(d -> q.product().isEmpty() || d.product().isEmpty() || d.product().contains(q.product().get()))
                        .forEach(d -> out.putIfAbsent(d.key(), d));
            } else if (!out.containsKey(key.strip())) {
                out.put(key.strip(), collections.forQuery(tenant, key.strip()));
            }
        }
        return List.copyOf(out.values());
    }

    private static DocsBackend.Request request(Query q) {
        return new DocsBackend.Request(q.query().strip(), q.limit().orElse(SEARCH_DEFAULT), q.product().filter(
                p -> !p.isBlank()), q.version().filter(v -> !v.isBlank()));
    }

    private static List<String> keys(List<DocCollection> targets) {
        return targets.stream().map(DocCollection::key).toList();
    }
}
