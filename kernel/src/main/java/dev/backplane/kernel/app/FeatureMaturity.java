package dev.backplane.kernel.app;

import static java.util.Objects.requireNonNull;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The feature-maturity index: how stable each capability of SPEC ("What the service does") is, and the
 * boundaries SPEC says may move. The one source of truth: {@code GET /api/v1/features} serves it, {@code svc
 * features} prints it, the MCP resource {@code svc://features} carries it and the MCP instructions summarise the
 * labels SPEC gives. Labels elsewhere (the CLI's "(Beta)" on {@code svc scheduler}, "(experimental)" on {@code svc
 * docs}, the docs tools' "Experimental.") are held to it by {@code FeaturesIT}.
 *
 * <p>SPEC labels four capabilities: memory and the knowledge base GA (the 1.0 stability promise), the docs add-on
 * experimental (outside the promise), the scheduler and so its event triggers Beta. It labels no other capability;
 * those are listed as Beta with {@code spec_labelled: false} — not under the 1.0 promise, which SPEC gives only to
 * memory and kb — until SPEC says otherwise.
 */
public enum FeatureMaturity {

    TARGETS("targets", "Target registry: coordinates, secret_ref, probe and fingerprint", Maturity.BETA, false,
            "REST and CLI; agents only read targets (list_targets)"),
    CATALOG("catalog", "Connector catalog: meta-tools, vendor spec ingest and review", Maturity.BETA, false,
            "operations ship default-deny until a review enables them"),
    GOVERNANCE("governance", "Governance: policy gate, approvals (four-eyes), grants, audit log, work_ref", Maturity.BETA,
            false, "every dispatch takes the same path: gate, credentials, reduction, audit row"),
    MEMORY("memory", "Memory: scoped, optionally expiring entries with hybrid search", Maturity.GA, true,
            "1.0 stability promise"),
    KB("kb", "Knowledge base: durable team knowledge with hybrid search", Maturity.GA, true,
            "1.0 stability promise; deletion on REST and CLI only"),
    DOCS("docs", "Doc collections add-on: grounded search and answers over external retrieval", Maturity.EXPERIMENTAL,
            true, "outside the 1.0 promise; may change"),
    AGENTS("agents", "Agent definitions, agent principals, grants and agent runs", Maturity.BETA, false,
            "synchronous or asynchronous runs through the same governed pipeline"),
    EVENTS("events", "Event sources: authenticated inbound webhooks and the durable event log", Maturity.BETA, false,
            "the scheduler's event triggers consume them"),
    SCHEDULER("scheduler", "Scheduler: event and cron triggers that start agent runs", Maturity.BETA, true,
            "event triggers are part of the scheduler and Beta with it"),
    CONVENTIONS("conventions", "Conventions: packed into agent instructions or searched", Maturity.BETA, false,
            "operational ones are packed into agents' instructions within a token budget, the others searched"),
    DASHBOARDS("dashboards", "Dashboards and sensors: governed checks, roll-ups, notification mail", Maturity.BETA,
            false, "a sensor runs through the pipeline as its service principal"),
    RUNBOOKS("runbooks", "Runbooks: versioned templates run step by step through the pipeline", Maturity.BETA, false,
            "agents read published templates as svc://runbook/{slug}"),
    TOPOLOGY("topology", "Topology graph: curated and discovered edges, history, paths", Maturity.BETA, false,
            "discovery dispatches through the pipeline"),
    BROADCAST("broadcast", "Broadcast activity feed and announcements", Maturity.BETA, false,
            "an SSE stream of the tenant's activity"),
    TENANT_POLICIES("tenant-policies", "Per-tenant policies: flight recorder, mail recipients", Maturity.BETA, false,
            "set by a tenant_admin"),
    RETRIEVAL_QUALITY("retrieval-quality", "Retrieval-quality tooling: eval, usage, retire checklist", Maturity.BETA,
            false, "measures kb, memory and operation search"),
    SERVICE_GRANTS("service-grants", "Service-principal grants: exact connector and operation, no globs",
            Maturity.BETA, false, "delete-shaped operations are refused");

    /** A maturity label as SPEC writes it. */
    public enum Maturity {
        GA("GA"), BETA("Beta"), EXPERIMENTAL("experimental");

        private final String label;

        Maturity(String label) {
            this.label = label;
        }

        /** {@code GA}, {@code Beta} or {@code experimental}: on the wire and in every label. */
        public String label() {
            return label;
        }
    }

    /**
     * A boundary SPEC draws between surfaces that may move (SPEC "Versioning": tracked in this index).
     *
     * @param key a stable name
     * @param rule what holds today
     */
    public record Boundary(String key, String rule) {
        public Boundary {
            requireNonNull(key, "key is null");
            requireNonNull(rule, "rule is null");
        }
    }

    /** SPEC's boundary rules, in its order. */
    public static final List<Boundary> BOUNDARIES = List.of(
            new Boundary("target-registration", "Registering targets and staging secrets have no agent tool; agents "
                    + "get only the read-only tool list_targets."),
            new Boundary("kb-deletion", "Knowledge-base deletion exists only on REST and CLI, not as an agent tool."));

    private final String key;
    private final String title;
    private final Maturity maturity;
    private final boolean specLabelled;
    private final String note;

    FeatureMaturity(String key, String title, Maturity maturity, boolean specLabelled, String note) {
        this.key = key;
        this.title = title;
        this.maturity = maturity;
        this.specLabelled = specLabelled;
        this.note = note;
    }

    public String key() {
        return key;
    }

    public Maturity maturity() {
        return maturity;
    }

    /**
     * The index as served: {@code features} (key, title, maturity, spec_labelled, note) in SPEC's order, and
     * {@code boundaries} (key, rule).
     */
    public static Map<String, Object> index() {
        List<Map<String, Object>> features = Arrays.stream(values()).map(f -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("key", f.key);
            m.put("title", f.title);
            m.put("maturity", f.maturity.label());
            m.put("spec_labelled", f.specLabelled);
            m.put("note", f.note);
            return m;
        }).toList();
        List<Map<String, Object>> boundaries = BOUNDARIES.stream().map(b -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("key", b.key());
            m.put("rule", b.rule());
            return m;
        }).toList();
        Map<String, Object> index = new LinkedHashMap<>();
        index.put("features", features);
        index.put("boundaries", boundaries);
        return index;
    }
}
