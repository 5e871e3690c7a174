package dev.backplane.kernel.catalog;

import dev.backplane.ingest.IngestOptions;
import dev.backplane.ingest.IngestResult;
import dev.backplane.kernel.audit.AuditClass;
import dev.backplane.kernel.audit.AuditLog;
import dev.backplane.kernel.catalog.IngestPlans.Plan;
import dev.backplane.kernel.identity.Caller;
import dev.backplane.kernel.persistence.ChangeFeed;
import dev.backplane.kernel.plugins.LoadedConnector;
import dev.backplane.kernel.util.Digests;
import dev.backplane.kernel.util.JsonMapping;
import dev.backplane.plugin.api.ConnectorDescriptor;
import dev.backplane.plugin.api.IngestedConnector;
import dev.backplane.plugin.api.OperationDescriptor;
import dev.backplane.plugin.api.OperationShape;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * The body of an ingest, within the request or as a background job: converts a {@link Plan}'s specs, saves
 * the connector staged (resetting the reviews a changed revision invalidates and telling the change feed),
 * and answers the result view; a dry run saves nothing.
 */
final class IngestRun {

    private static final String ENGINE = "openapi";
    private static final String DONE = "done";
    private static final String DEFERRED = "deferred";

    /** The op id of the audit row each applied rule of a rules file writes. */
    static final String RULE_AUDIT_OP = "svc.catalog.classification_rule";

    private final IngestStore store;
    private final ConnectorRegistry registry;
    private final ChangeFeed feed;
    private final long maxSpecBytes;
    private final Optional<SpecIngestService.SearchPreparation> searchPreparation;
    private final Optional<AuditLog> audit;

    IngestRun(IngestStore store, ConnectorRegistry registry, ChangeFeed feed, long maxSpecBytes,
              Optional<SpecIngestService.SearchPreparation> searchPreparation, Optional<AuditLog> audit) {
        this.store = store;
        this.registry = registry;
        this.feed = feed;
        this.maxSpecBytes = maxSpecBytes;
        this.searchPreparation = searchPreparation;
        this.audit = audit;
    }

    Map<String, Object> run(Plan plan, Caller caller, Consumer<IngestOptions.Progress> progress) {
        String actor = caller.sub();
        if (registry.isPlugin(plan.connectorId())) {
            throw CatalogErrors.CONNECTOR_EXISTS.error("connector " + plan.connectorId()
                    + " is provided by a plugin jar; choose another --impl or --version", Map.of());
        }
        // the conversion's own "done" is not the ingest's: saving and the operation embeddings come after it
        Consumer<IngestOptions.Progress> converting = p -> {
            if (!p.stage().equals(DONE)) {
                progress.accept(p);
            }
        };
        IngestResult result = SpecIngestService.convert(plan.sources(), new IngestOptions(plan.implId(), plan.version(),
                plan.product(), plan.compatible(), maxSpecBytes, false, converting, plan.credentialReads(),
                plan.notCredentialReads()));
        ConnectorDescriptor descriptor = new ConnectorDescriptor(plan.implId(), plan.version(),
                List.of(new ConnectorDescriptor.Product(plan.product(), plan.defaultPort())), List.of(plan.version()),
                plan.auth().secretFields());
        List<String> warnings = new ArrayList<>(result.warnings());
        String basePath = plan.basePath().orElse(result.basePath());
        if (plan.basePath().isPresent() && !basePath.equals(result.basePath())) {
            warnings.add("base path " + (basePath.isEmpty() ? "/" : basePath) + " as given, not the spec's "
                    + (result.basePath().isEmpty() ? "/" : result.basePath()));
        }
        // the rules file corrects the heuristic before anything is stored: a rule that is wrong refuses it all
        ClassificationRules.Applied ruled = ClassificationRules.apply(result.catalog(), plan.rules());
        IngestedConnector connector = new IngestedConnector(descriptor, SpecIngestService.curated(ruled.catalog(),
                plan.curatedGroups(), warnings), basePath, plan.auth());
        Map<String, String> reasons = reasons(result.classifications(), ruled.applied());
        List<Map<String, Object>> specs = result.specs().stream().map(s -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("location", s.location());
            m.put("format", s.format());
            m.put("title", s.title());
            m.put("info_version", s.infoVersion());
            m.put("sha256", s.sha256());
            m.put("bytes", s.bytes());
            m.put("operations", s.operations());
            return m;
        }).toList();
        boolean created = true;
        int reviewsReset = 0;
        String vectors = null;
        Long vectorsMillis = null;
        if (!plan.dryRun()) {
            progress.accept(new IngestOptions.Progress("saving", 0, 1));
            Map<String, Object> forRevision = new TreeMap<>();
            forRevision.put("catalog", IngestedJson.catalogJson(connector.catalog()));
            if (!ruled.applied().isEmpty()) {
                forRevision.put(IngestedJson.CLASSIFICATION_RULES, ruled.applied());
            }
            forRevision.put("auth", IngestedJson.authJson(plan.auth()));
            forRevision.put("base_path", basePath);
            forRevision.put("descriptor", List.of(descriptor.products().getFirst().token(),
                    descriptor.products().getFirst().defaultPort()));
            String revision = Digests.sha256Hex(JsonMapping.write(forRevision));
            IngestStore.Saved saved = store.save(plan.owner(), connector, ENGINE, specs, warnings, revision,
                    actor, ruled.applied(), reasons, c -> {
                        auditRules(c, caller, plan, ruled.applied());
                        return null;
                    });
            created = saved.created();
            reviewsReset = saved.reviewsReset().size();
            saved.reviewsReset().forEach(t -> feed.changed(ReviewStore.TOPIC, ReviewStore.key(t, plan.connectorId())));
            feed.changed(ConnectorRegistry.TOPIC, plan.connectorId()); // reloads this replica's registry now
            long start = System.nanoTime();
            vectors = searchVectors(plan, progress);
            vectorsMillis = vectors.equals(DEFERRED) ? null : (System.nanoTime() - start) / 1_000_000;
        } else {
            created = !store.existsInScope(plan.owner(), plan.connectorId());
        }
        Map<String, Object> view = view(plan, connector, specs, warnings, created);
        view.put("classification_notes", notes(connector, reasons));
        view.put("reviews_reset", reviewsReset);
        view.put(IngestedJson.CLASSIFICATION_RULES, ruled.applied());
        view.put("search_vectors", vectors);
        view.put("search_vectors_ms", vectorsMillis);
        int ops = connector.catalog().operations().size();
        progress.accept(new IngestOptions.Progress(DONE, ops, ops));
        return view;
    }

    /**
     * The last stage: the saved connector's operation embeddings, computed through the catalog search's own index
     * (so its first search is hybrid and nothing is embedded twice), progress {@code embedding} done/total
     * operations. {@code ready}; {@code failed} (logged; searches rank by words and the first one tries again); or
     * {@code deferred} (catalog.ingest-embeddings false, or the connector did not load): the first search starts them.
     */
    private String searchVectors(Plan plan, Consumer<IngestOptions.Progress> progress) {
        if (searchPreparation.isEmpty()) {
            return DEFERRED;
        }
        Optional<LoadedConnector> loaded = registry.ingested(plan.owner(), plan.connectorId());
        if (loaded.isEmpty()) {
            return DEFERRED;
        }
        boolean ready = searchPreparation.get().prepare(loaded.get(),
                (done, total) -> progress.accept(new IngestOptions.Progress("embedding", done, total)));
        return ready ? "ready" : "failed";
    }

    /**
     * One audit row per applied rule, in the ingest's own transaction: who applied it, to which connector, what it
     * matched and set, why, and the op ids it changed (the first {@value #AUDITED_OP_IDS}, with their count). The
     * row is in the owning tenant's log, or the ingesting admin's for a global connector.
     */
    private void auditRules(java.sql.Connection c, Caller caller, Plan plan, List<Map<String, Object>> applied)
            throws java.sql.SQLException {
        if (audit.isEmpty()) {
            return;
        }
        for (Map<String, Object> rule : applied) {
            @SuppressWarnings("unchecked")
            List<String> opIds = (List<String>) rule.get("op_ids");
            Map<String, Object> extras = new LinkedHashMap<>();
            extras.put("rule", rule.get("rule"));
            extras.put("scope", plan.owner().map(t -> "tenant").orElse("global"));
            extras.put("match", rule.get("match"));
            extras.put("set", rule.get("set"));
            extras.put("reason", rule.get("reason"));
            extras.put("op_count", opIds.size());
            extras.put("op_ids", opIds.subList(0, Math.min(AUDITED_OP_IDS, opIds.size())));
            AuditLog.Entry entry = new AuditLog.Entry(plan.owner().orElse(caller.tenantId()), caller.sub(),
                    caller.kind().wireName(), AuditClass.OTHER.wireName(), RULE_AUDIT_OP,
                    Optional.of(plan.connectorId()), Optional.empty(), Optional.empty(), caller.sessionId(),
                    Optional.empty(), Optional.empty(), Optional.empty());
            audit.get().recordIn(c, entry, "ok", Optional.empty(), extras);
        }
    }

    private static final int AUDITED_OP_IDS = 20;
    /** At most this many {@code classification_notes} in an ingest's answer; review shows every reason. */
    static final int CLASSIFICATION_NOTES = 200;

    /** Why each operation got its class and safety: the heuristic's reason, or the rules file rule that set it. */
    private static Map<String, String> reasons(Map<String, String> heuristic, List<Map<String, Object>> applied) {
        Map<String, String> out = new TreeMap<>(heuristic);
        for (Map<String, Object> rule : applied) {
            @SuppressWarnings("unchecked")
            List<String> opIds = (List<String>) rule.get("op_ids");
            opIds.forEach(id -> out.put(id, "rules file, rule " + rule.get("rule") + ": " + rule.get("reason")));
        }
        return out;
    }

    /**
     * The operations whose class or safety is not what their HTTP method alone would give — credential reads,
     * POSTs that only read, POSTs that destroy, and what a rules file set — with the reason, for the admin to check
     * in the dry run before anything is stored.
     */
    private static Map<String, Object> notes(IngestedConnector c, Map<String, String> reasons) {
        List<Map<String, Object>> notes = new ArrayList<>();
        int count = 0;
        for (OperationDescriptor op : c.catalog().operations()) {
            String method = op.shape() instanceof OperationShape.Http h ? h.method() : "";
            String reason = reasons.getOrDefault(op.opId(), "");
            if (reason.equals(method) || reason.isEmpty()) {
                continue; // GET read, DELETE dangerous, POST/PUT/PATCH caution: what the method says
            }
            count++;
            if (notes.size() < CLASSIFICATION_NOTES) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("op_id", op.opId());
                m.put("op_class", op.opClass().wireName());
                m.put("safety_level", op.safetyLevel().wireName());
                m.put("requires_approval", op.requiresApproval());
                m.put("reason", reason);
                notes.add(m);
            }
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("count", count);
        out.put("operations", notes);
        return out;
    }

    private static Map<String, Object> view(Plan plan, IngestedConnector c, List<Map<String, Object>> specs,
                                            List<String> warnings, boolean created) {
        Map<String, Integer> perGroup = new LinkedHashMap<>();
        Map<String, Integer> safety = new TreeMap<>();
        int reads = 0;
        for (OperationDescriptor op : c.catalog().operations()) {
            perGroup.merge(op.groupKey(), 1, Integer::sum);
            safety.merge(op.safetyLevel().wireName(), 1, Integer::sum);
            reads += op.isReadClass() ? 1 : 0;
        }
        List<Map<String, Object>> groups = c.catalog().groups().stream().map(g -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("group_key", g.groupKey());
            m.put("display_name", g.displayName());
            m.put("operation_count", perGroup.getOrDefault(g.groupKey(), 0));
            return m;
        }).toList();
        String id = plan.connectorId();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("connector_id", id);
        m.put("dry_run", plan.dryRun());
        m.put("created", created);
        m.put("status", "staged");
        m.put("scope", plan.owner().map(t -> "tenant").orElse("global"));
        m.put("tenant_id", plan.owner().map(UUID::toString).orElse(null));
        m.put("product", plan.product());
        m.put("impl_id", plan.implId());
        m.put("version", plan.version());
        m.put("base_path", c.basePath());
        m.put("auth", IngestedJson.authJson(c.auth())); // scheme, secret field names, settings: no secret values
        m.put("operation_count", c.catalog().operations().size());
        m.put("read_operation_count", reads);
        m.put("group_count", c.catalog().groups().size());
        m.put("safety_counts", safety);
        m.put("groups", groups);
        m.put("specs", specs);
        m.put("warnings", warnings);
        m.put("next_steps", plan.dryRun() ? List.of("run the same command without --dry-run to ingest")
                : List.of("svc connector review " + id, "svc connector enable-reads " + id + " --confirm",
                "svc connector enable " + id + " --confirm"));
        m.put("ingested_at", plan.dryRun() ? null : Instant.now().toString());
        return m;
    }
}
