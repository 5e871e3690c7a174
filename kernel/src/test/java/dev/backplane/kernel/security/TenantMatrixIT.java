package dev.backplane.kernel.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.backplane.kernel.catalog.SpecIngestIT;
import dev.backplane.kernel.http.ApiRoutes;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.testing.Fixtures;
import dev.backplane.kernel.testing.LoopbackHttp;
import dev.backplane.kernel.testing.ScriptedModel;
import dev.backplane.kernel.testing.TempDirs;
import dev.backplane.kernel.testing.TestIssuer;
import dev.backplane.kernel.testing.TestKernel;
import dev.backplane.kernel.testing.TestPlugins;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Tenant isolation over every REST route the kernel declares and every MCP tool it lists.
 *
 * <p>Tenant A creates one of everything through the API (targets with a staged secret, a tenant-scoped
 * ingested connector and a background ingest job, review edits of a plugin connector, kb entries and a kb
 * ingest job, memory in every scope, a doc collection and a global one granted to A, an agent principal,
 * an agent grant, a service grant, a parked approval, an async run, a reduced result handle, audit rows,
 * an agent definition and one real run of it (a scripted model on loopback calls a tool and answers; the run is
 * also A's audit session), an event source and an event, a flight-recorder policy). Then tenant B — a tenant_admin and an
 * operator of another tenant — calls every route and every MCP tool with A's names, ids, slugs and handles
 * in the path, the query and the body. The route list is {@code kernel.api().routes()}, so a new route
 * is covered without touching this class; a path parameter this class cannot fill, or a POST/PATCH/PUT
 * route without a body here, fails the test by name, so whoever adds it extends the matrix.
 *
 * <p>Every distinctive string of A carries the marker {@link #R}; ids without it (uuids, event slugs)
 * are checked one by one. A "leak" is any of them in B's answer that B did not itself send in that
 * request (or, once B has created look-alike objects in its own namespace, in any earlier request).
 *
 * <p>Phases, in order:
 * <ol>
 *   <li>BLIND: B knows nothing of A — every parameterless GET, list and search (with words that do match A's
 *       content, as the positive controls prove), REST and MCP: any non-5xx answer, nothing of A in it.</li>
 *   <li>REFUSED: A's object in the path, the query or the body (and MCP tools and resources with A's names):
 *       401/403/404/409/422 only, with the same status, error code and body (message and extras too, each value
 *       replaced by its name, the request id dropped) as for a made-up object of the same shape (no existence
 *       oracle; {@link #INTENTIONAL_DIFFERENCES} would list any exception, and lists none). A 2xx that answers exactly as for a made-up object (an empty who-touched list,
 *       an async run that then fails target_not_found) is listed as a note, not a failure: nothing of A was
 *       resolved, and the database check proves nothing of A changed.</li>
 *   <li>OWN: B acting in its own namespace with A's names (a target, kb entry, memory, doc collection, event
 *       source, agent principal or ingested connector called like A's; B's review of the global plugin
 *       connector A reviewed): 2xx is fine, the answer must equal a made-up name's in status, show nothing of
 *       A, and change nothing of A. Each such case is commented where its body is declared.</li>
 *   <li>BLIND2 and REVISIT: the lists again and every GET of step 2, now that B owns look-alikes: B's object
 *       called like A's shows B's content only (no cache or lookup keyed by name alone).</li>
 *   <li>LOOKALIKE: every changing route of step 2 again, now renaming, re-securing, revoking and deleting B's
 *       own look-alikes: it must act on B's object, never on A's of the same name.</li>
 *   <li>The acting-tenant header: B naming A in {@code X-Svc-Tenant} gets 403 on every route and on MCP.</li>
 * </ol>
 * Afterwards nothing of A may differ: row count and row content per tenant of every table with a
 * {@code tenant_id} column (found in information_schema, so new tables are covered), with no new rows under
 * any tenant but B's (audit rows of B's refused attempts land under B); A's objects re-read through the API;
 * A's credential, doc collection, agent principal and pending approval still work; the fake target never saw
 * A's credential and A's doc backends were never called for B. The summary line and the whole matrix (one
 * line per request) are printed and written to {@code target/tenant-matrix.txt}.
 */
class TenantMatrixIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final SecureRandom RANDOM = new SecureRandom();
    /** Carried by every distinctive string of tenant A. */
    private static final String R = marker();
    private static final UUID A = UUID.randomUUID();
    private static final UUID B = UUID.randomUUID();
    private static final String PASSWORD = "pw-" + R + "-secret";
    private static final String EVENT_SECRET = "essecret-" + R + "-0123456789abcdef";
    private static final List<String> TARGET_HITS = new CopyOnWriteArrayList<>();
    private static final List<String> CORPUS_SEEN = new CopyOnWriteArrayList<>();
    private static final Set<Integer> REFUSALS = Set.of(401, 403, 404, 409, 422);
    private static final Pattern PARAM = Pattern.compile("\\{([a-z_]+)}");
    private static final Pattern UUIDISH = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

    // generic words that match A's content without naming it: a search that is not isolated finds A's entries
    private static final String KB_WORDS = "payments failover promote standby replica";
    private static final String MEMORY_WORDS = "change freeze friday afternoon payments";
    private static final String DOCS_WORDS = "promote standby server failover";

    private static Path work;
    private static Path kbRoot;
    private static HttpServer target;
    private static HttpServer corpus;
    private static TestIssuer issuer;
    private static TestKernel kernel;
    private static Jdbc jdbc;
    /** The model A's agent run talks to (an OpenAI-compatible server on loopback answering from a script). */
    private static ScriptedModel model;

    private static String aAdmin;
    private static String aOperator;
    private static String aAdminSub;
    private static String aOperatorSub;
    private static String platform;

    private final String bAdminSub = "b-admin-" + UUID.randomUUID();
    private final String bOperatorSub = "b-op-" + UUID.randomUUID();
    private final Map<String, String> callers = new LinkedHashMap<>();
    /** A's identifiers and content, by placeholder name. */
    private final Map<String, String> aVals = new LinkedHashMap<>();
    /** The same shapes, naming nothing that exists. */
    private final Map<String, String> decoys = new LinkedHashMap<>();
    /** Values in bodies that are not A's (B's tenant, the spec B ingests...). */
    private final Map<String, String> consts = new LinkedHashMap<>();
    private final Set<String> knownToB = new LinkedHashSet<>();
    private final List<String> findings = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    private final List<String> log = new ArrayList<>();
    private int requests;
    private int leaks;
    /** REFUSED answers whose whole normalized body was found equal to a made-up object's. */
    private int bodiesCompared;

    @BeforeAll
    static void start() throws Exception {
        work = TempDirs.create("svc-tenant-matrix");
        Path plugins = Files.createDirectories(work.resolve("plugins"));
        kbRoot = Files.createDirectories(work.resolve("kb-import"));
        target = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        String auth = LoopbackHttp.basic("svc", PASSWORD);
        target.createContext("/", x -> {
            TARGET_HITS.add(x.getRequestMethod() + " " + x.getRequestURI() + " " + x.getRequestHeaders().getFirst("Authorization"));
            boolean ok = auth.equals(x.getRequestHeaders().getFirst("Authorization"));
            String path = x.getRequestURI().getPath();
            String body;
            if (!ok) {
                body = "no";
            } else if (path.equals("/version")) {
                body = "ver-" + R;
            } else if (path.equals("/members")) {
                body = "member1-" + R + ",member2-" + R;
            } else if (path.equals("/items")) {
                int n = Integer.parseInt(x.getRequestURI().getQuery().replace("count=", ""));
                StringBuilder b = new StringBuilder();
                for (int i = 0; i < n; i++) {
                    b.append("row-").append(R).append('-').append(i).append('\n');
                }
                body = b.toString();
            } else {
                body = "itembody-" + R;
            }
            answer(x, ok ? 200 : 401, body);
        });
        target.start();
        corpus = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        corpus.createContext("/", x -> {
            byte[] in = x.getRequestBody().readAllBytes();
            CORPUS_SEEN.add(x.getRequestURI().getPath() + " auth=" + x.getRequestHeaders().getFirst("Authorization")
                    + " body=" + new String(in, StandardCharsets.UTF_8));
            String path = x.getRequestURI().getPath();
            // A's collection, the global one granted to A, and B's own (which knows nothing of A)
            String mark = path.startsWith("/bdocs") ? "b-own" : R;
            String who = path.startsWith("/gdocs") ? "Global guide" : path.startsWith("/bdocs") ? "B guide" : "Failover guide";
            String text = who + " " + mark + ": promote the standby server with pg_ctl promote, then rewind the old "
                    + "primary. Marker passage-" + mark + ".";
            answer(x, 200, JSON.createObjectNode().set("chunks", JSON.createArrayNode().add(JSON.createObjectNode()
                    .put("id", "chunk-" + mark).put("text", text).put("title", who + " " + mark)
                    .put("url", "https://docs.example.com/" + mark).put("score", 3.0))).toString());
        });
        corpus.start();
        TestPlugins.build(plugins, TestPlugins.connector("mtx", "1.x").product("mtx").ranges("*").operations(6)
                .httpProbe(true));
        issuer = new TestIssuer();
        Map<String, String> env = TestKernel.settings(issuer, plugins);
        env.put("SVC_INGEST_SYNC_MAX_BYTES", "8000");
        env.put("SVC_KB_INGEST_ROOT", kbRoot.toString());
        model = new ScriptedModel();
        env.put("SVC_AGENTS_MODEL_BASE_URL", model.baseUrl());
        kernel = TestKernel.start(work.resolve("data"), env);
        jdbc = new Jdbc(kernel.kernel().database().dataSource());
        aAdminSub = "admin-" + R;
        aOperatorSub = "op-" + R;
        aAdmin = issuer.token(aAdminSub, A, "tenant_admin");
        aOperator = issuer.token(aOperatorSub, A, "operator");
        platform = issuer.platformAdminToken("platform-" + UUID.randomUUID(), UUID.randomUUID());
    }

    @AfterAll
    static void stop() {
        Fixtures.closeAll(kernel, issuer, model);
        target.stop(0);
        corpus.stop(0);
    }

    // ------------------------------------------------------------------------------------------------
    // the matrix
    // ------------------------------------------------------------------------------------------------

    /** Which phase a probe belongs to, and so what it must answer. */
    enum Phase {
        /** B names nothing of A: any non-5xx answer, and nothing of A in it. */
        BLIND,
        /** A's object in the path or the body: 401/403/404/409/422 only, as for a made-up object. */
        REFUSED,
        /** B acts in its own namespace with A's names: 2xx allowed; nothing of A shown, nothing of A changed. */
        OWN
    }

    /** Values for one or more path parameters; {@code query} is appended to the path. */
    record Opt(Map<String, String> values, Phase phase, boolean compare, String query) {
        static Opt of(String param, String value) {
            return new Opt(Map.of(param, value), Phase.REFUSED, true, "");
        }
    }

    /** A body (and query) variant of a route. {@code phase} null: the path decides. */
    record Shape(String label, String query, String body, Phase phase, boolean compare) {
        static Shape of(String label, String body) {
            return new Shape(label, "", body, null, true);
        }

        static Shape own(String label, String query, String body) {
            return new Shape(label, query, body, Phase.OWN, true);
        }

        static Shape refused(String label, String query, String body) {
            return new Shape(label, query, body, Phase.REFUSED, true);
        }
    }

    /** One request of the matrix, with placeholders (${name}) still in it. */
    record Probe(String route, String method, String path, String body, Phase phase, boolean compare, String label) {
    }

    /**
     * Path parameter values, keyed by the path up to the parameter and the parameter's name. An option
     * may also fill later parameters of the same route (a connector and its group or operation, a memory
     * scope and its slug).
     */
    private static Map<String, List<Opt>> pathOptions() {
        Map<String, List<Opt>> m = new LinkedHashMap<>();
        m.put("/api/v1/targets/|name", List.of(Opt.of("name", "${target}"), Opt.of("name", "${alias}")));
        // A's tenant-scoped ingested connector is invisible to B (refused); the plugin connector is global and
        // B's review of it is B's own (own namespace: A's review edits must neither show nor change)
        m.put("/api/v1/connectors/|connector_id", List.of(
                new Opt(Map.of("connector_id", "${connector}", "group_key", "${ingestedGroup}", "op_id", "${ingestedOp}"),
                        Phase.REFUSED, true, ""),
                new Opt(Map.of("connector_id", "mtx-1.x", "group_key", "items", "op_id", "mtx.item1.get"),
                        Phase.OWN, false, "")));
        // products are global; a tenant's implementation preference for one is its own: B's PUT and DELETE must
        // neither show nor change A's (A set one in its setup; the per-tenant snapshot holds connector_preferences)
        m.put("/api/v1/connector-preferences/|product", List.of(new Opt(Map.of("product", "mtx"), Phase.OWN, false, "")));
        m.put("/api/v1/connectors/ingest-jobs/|job_id", List.of(Opt.of("job_id", "${specJob}"), Opt.of("job_id", "${kbJob}")));
        m.put("/api/v1/kb/ingest-jobs/|job_id", List.of(Opt.of("job_id", "${kbJob}"), Opt.of("job_id", "${specJob}")));
        m.put("/api/v1/approvals/|id", List.of(Opt.of("id", "${approval}")));
        m.put("/api/v1/agent-principals/|name", List.of(Opt.of("name", "${agentName}")));
        m.put("/api/v1/agent-grants/|id", List.of(Opt.of("id", "${grant}")));
        m.put("/api/v1/service-principals/grants/|id", List.of(Opt.of("id", "${serviceGrant}")));
        m.put("/api/v1/kb/|slug", List.of(Opt.of("slug", "${kbSlug}"), Opt.of("slug", "${kbIngestedSlug}")));
        m.put("/api/v1/memory/|scope", List.of(
                new Opt(Map.of("scope", "tenant", "slug", "${memTenant}"), Phase.REFUSED, true, ""),
                new Opt(Map.of("scope", "user-tenant", "slug", "${memUserTenant}"), Phase.REFUSED, true, ""),
                new Opt(Map.of("scope", "target", "slug", "${memTarget}"), Phase.REFUSED, true, "target_name=${target}"),
                new Opt(Map.of("scope", "user-target", "slug", "${memUserTarget}"), Phase.REFUSED, true,
                        "target_name=${target}"),
                new Opt(Map.of("scope", "user", "slug", "${memUser}"), Phase.REFUSED, true, "")));
        m.put("/api/v1/audit/sessions/|session_id", List.of(Opt.of("session_id", "${session}")));
        m.put("/api/v1/audit/who-touched/|target", List.of(Opt.of("target", "${target}"), Opt.of("target", "${alias}")));
        m.put("/api/v1/audit/|audit_id", List.of(Opt.of("audit_id", "${audit}")));
        // archives are the deploy's (platform_admin only): refused to B whatever the name
        m.put("/api/v1/audit/archives/|name", List.of(Opt.of("name", "y2026m01")));
        m.put("/api/v1/operations/runs/|handle", List.of(Opt.of("handle", "${runHandle}"), Opt.of("handle", "${resultHandle}")));
        // the global collection granted to A is the platform's, not A's: it is refused to B (no grant, not a
        // platform_admin) but its existence is no secret of A, so no decoy comparison for it
        m.put("/api/v1/docs/collections/|key", List.of(Opt.of("key", "${docKey}"),
                new Opt(Map.of("key", "${globalDocKey}"), Phase.REFUSED, false, "")));
        m.put("/api/v1/docs/collections/{key}/grants/|tenant_id", List.of(Opt.of("tenant_id", "${tenantA}"),
                Opt.of("tenant_id", "${tenantB}")));
        m.put("/api/v1/agents/|name", List.of(Opt.of("name", "${agentDef}")));
        m.put("/api/v1/agent-runs/|handle", List.of(Opt.of("handle", "${agentRun}")));
        m.put("/api/v1/scheduler/triggers/|id", List.of(Opt.of("id", "${trigger}")));
        m.put("/api/v1/sensors/|id", List.of(Opt.of("id", "${sensor}")));
        m.put("/api/v1/dashboards/|id", List.of(Opt.of("id", "${dashboard}")));
        m.put("/api/v1/conventions/|slug", List.of(Opt.of("slug", "${conventionSlug}"), Opt.of("slug", "${conventionOps}")));
        m.put("/api/v1/broadcast/overrides/|id", List.of(Opt.of("id", "${override}")));
        m.put("/api/v1/runbooks/templates/|slug", List.of(Opt.of("slug", "${runbook}")));
        m.put("/api/v1/runbooks/runs/|id", List.of(Opt.of("id", "${runbookRun}")));
        m.put("/api/v1/event-sources/|slug", List.of(Opt.of("slug", "${eventSlug}"), Opt.of("slug", "${eventSourceName}")));
        m.put("/api/v1/events/|id", List.of(Opt.of("id", "${event}")));
        return m;
    }

    /** Bodies (and queries) per route: every POST/PATCH/PUT route needs one; GET/DELETE default to none. */
    private static Map<String, List<Shape>> shapes() {
        Map<String, List<Shape>> m = new LinkedHashMap<>();
        String call = "{\"connector_id\": \"mtx-1.x\", \"op_id\": \"mtx.item0.list\", \"target\": \"%s\", \"params\": {\"count\": 3}%s}";
        // --- targets
        m.put("POST /api/v1/targets", List.of(
                // special case: a target of B called like A's is B's own (names are per tenant)
                Shape.own("same name and alias in B's namespace", "", "{\"name\": \"${target}\", \"aliases\": [\"${alias}\"], "
                        + "\"product\": \"mtx\", \"host\": \"127.0.0.1\", \"port\": ${port}, \"extras\": {\"scheme\": \"http\"}}"),
                Shape.refused("A's secret_ref", "", "{\"name\": \"b-steal\", \"product\": \"mtx\", \"host\": \"127.0.0.1\", "
                        + "\"port\": ${port}, \"secret_ref\": \"${secretRef}\"}")));
        m.put("POST /api/v1/targets/import", List.of(
                Shape.refused("A's secret_ref", "", "{\"targets\": [{\"name\": \"b-imp\", \"product\": \"mtx\", "
                        + "\"host\": \"127.0.0.1\", \"port\": ${port}, \"secret_ref\": \"${secretRef}\"}]}"),
                // special case: an import of A's names into B's namespace is B's own
                Shape.own("A's names, update", "", "{\"update\": true, \"targets\": [{\"name\": \"${target}\", "
                        + "\"product\": \"mtx\", \"host\": \"127.0.0.1\", \"port\": ${port}, \"notes\": \"b\"}]}")));
        m.put("POST /api/v1/targets/discover", List.of(
                Shape.refused("A's seed target", "", "{\"product\": \"mtx\", \"seed_target\": \"${target}\"}"),
                Shape.refused("A's alias as seed", "", "{\"product\": \"mtx\", \"seed_target\": \"${alias}\"}")));
        m.put("POST /api/v1/targets/{name}/probe", List.of(Shape.of("", null)));
        m.put("PATCH /api/v1/targets/{name}", List.of(Shape.of("notes", "{\"notes\": \"b-was-here\", \"port\": 9}")));
        m.put("PUT /api/v1/targets/{name}/secret", List.of(Shape.of("fields",
                "{\"fields\": {\"username\": \"b\", \"password\": \"b-pw\", \"token\": \"b-token\"}}")));
        m.put("GET /api/v1/targets", List.of(Shape.of("", null), Shape.own("cursor and product", "product=mtx&cursor=${target}", null)));
        // --- connectors and catalog
        m.put("POST /api/v1/connectors/ingest", List.of(
                Shape.refused("into A's tenant", "", "{\"product\": \"${connectorImpl}\", \"version\": \"1.x\", "
                        + "\"impl\": \"${connectorImpl}\", \"specs\": [{\"name\": \"b.json\", \"content\": ${bSpec}}], "
                        + "\"tenant_id\": \"${tenantA}\"}"),
                Shape.refused("global with A's impl", "", "{\"product\": \"${connectorImpl}\", \"version\": \"1.x\", "
                        + "\"impl\": \"${connectorImpl}\", \"specs\": [{\"name\": \"b.json\", \"content\": ${bSpec}}]}"),
                // special case: B ingests a connector with A's impl id into B's own tenant; A's must stay A's
                Shape.own("A's impl into B's tenant", "", "{\"product\": \"${connectorImpl}\", \"version\": \"1.x\", "
                        + "\"impl\": \"${connectorImpl}\", \"specs\": [{\"name\": \"b.json\", \"content\": ${bSpec}}], "
                        + "\"tenant_id\": \"${tenantB}\"}")));
        m.put("POST /api/v1/connectors/{connector_id}/enable", List.of(Shape.of("", null)));
        m.put("POST /api/v1/connectors/{connector_id}/disable", List.of(Shape.of("", null)));
        m.put("POST /api/v1/connectors/{connector_id}/enable-reads", List.of(Shape.of("", null)));
        m.put("PATCH /api/v1/connectors/{connector_id}/groups/{group_key}", List.of(Shape.of("rename",
                "{\"name\": \"b-group\", \"when_to_use\": \"b-when\"}")));
        m.put("PATCH /api/v1/connectors/{connector_id}/operations/{op_id}", List.of(Shape.of("edit",
                "{\"custom_description\": \"b-desc\", \"is_enabled\": true, \"requires_approval\": false}")));
        m.put("GET /api/v1/connectors/{connector_id}/operations", List.of(new Shape("search", "query=list%20things%20item",
                null, null, true)));
        m.put("PUT /api/v1/connector-preferences/{product}", List.of(Shape.of("prefer", "{\"impl_id\": \"mtx\"}")));
        m.put("GET /api/v1/connectors", List.of(Shape.of("", null), new Shape("all", "status=all", null, null, true)));
        // --- dispatch
        m.put("POST /api/v1/operations/call", List.of(
                Shape.refused("A's target", "", call.formatted("${target}", "")),
                Shape.refused("A's alias", "", call.formatted("${alias}", "")),
                Shape.refused("A's target id", "", call.formatted("${targetId}", "")),
                Shape.refused("A's target, async", "", call.formatted("${target}", ", \"async\": true")),
                Shape.refused("A's connector", "", "{\"connector_id\": \"${connector}\", \"op_id\": \"${ingestedOp}\", "
                        + "\"target\": \"${target}\"}"),
                Shape.refused("A's parked call", "", "{\"connector_id\": \"mtx-1.x\", \"op_id\": \"mtx.item5.delete\", "
                        + "\"target\": \"${target}\", \"params\": {\"name\": \"${parkedName}\"}, \"work_ref\": \"${workRef}\"}")));
        m.put("POST /api/v1/operations/preview", List.of(
                Shape.refused("A's target", "", call.formatted("${target}", "")),
                Shape.refused("A's alias", "", call.formatted("${alias}", "")),
                Shape.refused("A's connector", "", "{\"connector_id\": \"${connector}\", \"op_id\": \"${ingestedOp}\", "
                        + "\"target\": \"${target}\"}")));
        m.put("POST /api/v1/operations/result-query", List.of(
                Shape.refused("A's result handle", "", "{\"handle_id\": \"${resultHandle}\", \"offset\": 100}"),
                Shape.refused("A's result handle, grouped", "", "{\"handle_id\": \"${resultHandle}\", \"query\": "
                        + "{\"group_by\": [\"even\"], \"aggregates\": [{\"fn\": \"COUNT\"}]}}"),
                Shape.refused("A's run handle", "", "{\"handle_id\": \"${runHandle}\"}")));
        // --- approvals and governance
        m.put("POST /api/v1/approvals/{id}/approve", List.of(Shape.of("reason", "{\"reason\": \"b\"}"),
                Shape.of("break glass", "{\"break_glass\": true, \"reason\": \"b\"}"),
                Shape.of("async", "{\"async\": true, \"reason\": \"b\"}")));
        m.put("POST /api/v1/approvals/{id}/reject", List.of(Shape.of("reason", "{\"reason\": \"b\"}")));
        m.put("GET /api/v1/approvals", List.of(Shape.of("", null),
                Shape.own("A's work_ref", "status=pending&work_ref=${workRef}", null)));
        // special case: principal names are per tenant; B's principal called like A's is B's own
        m.put("POST /api/v1/agent-principals", List.of(Shape.own("A's name", "", "{\"name\": \"${agentName}\"}")));
        m.put("POST /api/v1/agent-principals/{name}/revoke", List.of(Shape.of("", null)));
        m.put("GET /api/v1/agent-principals", List.of(new Shape("revoked too", "include_revoked=true", null, null, true)));
        m.put("POST /api/v1/agent-grants", List.of(
                // special case: grants live in B's tenant and the kernel stores any target uuid without resolving
                // it; a grant naming A's target id matches none of B's targets and binds nothing in A (checked: same
                // answer as for a made-up uuid, A's rows unchanged, nothing of A in the answer)
                Shape.own("A's target id", "", "{\"principal\": \"${agentSub}\", \"op\": \"mtx.item0.*\", "
                        + "\"verdict\": \"auto-execute\", \"target\": \"${targetId}\"}"),
                Shape.refused("A's target name", "", "{\"principal\": \"${agentSub}\", \"op\": \"mtx.item0.*\", "
                        + "\"verdict\": \"auto-execute\", \"target\": \"${target}\"}"),
                // special case: a grant for A's agent's sub in B's tenant binds nothing in A
                Shape.own("A's principal sub", "", "{\"principal\": \"${agentSub}\", \"op\": \"*\", \"verdict\": \"auto-execute\"}")));
        m.put("POST /api/v1/agent-grants/elevate", List.of(
                // special case: as for agent-grants above
                Shape.own("A's target id", "", "{\"principal\": \"${agentSub}\", \"op\": \"mtx.item2.delete\", "
                        + "\"verdict\": \"auto-execute\", \"target\": \"${targetId}\", \"expires\": \"${soon}\"}"),
                Shape.own("A's principal sub", "", "{\"principal\": \"${agentSub}\", \"op\": \"mtx.item2.delete\", "
                        + "\"verdict\": \"needs-approval\", \"expires\": \"${soon}\"}")));
        m.put("POST /api/v1/agent-grants/{id}/revoke", List.of(Shape.of("", null)));
        m.put("GET /api/v1/agent-grants", List.of(new Shape("all", "include_revoked=true&include_expired=true", null, null, true),
                Shape.own("A's principal", "principal=${agentSub}&include_revoked=true&include_expired=true", null)));
        m.put("POST /api/v1/service-principals/grants", List.of(
                Shape.refused("A's connector", "", "{\"principal\": \"${serviceSub}\", \"connector_id\": \"${connector}\", "
                        + "\"op_id\": \"${ingestedOp}\", \"reason\": \"b\", \"target_product\": \"${connectorImpl}\"}"),
                Shape.refused("A's target", "", "{\"principal\": \"${serviceSub}\", \"connector_id\": \"mtx-1.x\", "
                        + "\"op_id\": \"mtx.item0.list\", \"reason\": \"b\", \"target\": \"${target}\"}"),
                // special case: a grant for A's service sub in B's tenant binds nothing in A
                Shape.own("A's principal sub", "", "{\"principal\": \"${serviceSub}\", \"connector_id\": \"mtx-1.x\", "
                        + "\"op_id\": \"mtx.item0.list\", \"reason\": \"b\", \"target_product\": \"mtx\"}")));
        m.put("POST /api/v1/service-principals/grants/{id}/revoke", List.of(Shape.of("", null)));
        m.put("GET /api/v1/service-principals/grants", List.of(
                new Shape("all", "include_revoked=true&include_expired=true", null, null, true),
                Shape.own("A's principal", "principal=${serviceSub}&include_revoked=true", null)));
        // --- kb
        // special case: kb slugs are per tenant; B's entry with A's slug is B's own
        m.put("POST /api/v1/kb", List.of(Shape.own("A's slug", "", "{\"slug\": \"${kbSlug}\", \"body\": \"b body\"}")));
        m.put("POST /api/v1/kb/search", List.of(Shape.of("generic words", "{\"query\": \"" + KB_WORDS + "\", \"limit\": 50}"),
                Shape.own("A's slug and metadata", "", "{\"query\": \"${kbSlug}\", \"filters\": {\"kind\": \"${kbKind}\"}}")));
        m.put("POST /api/v1/kb/ingest", List.of(
                Shape.refused("A's (removed) directory", "", "{\"directory\": \"${kbDir}\", \"dry_run\": true}")));
        m.put("GET /api/v1/kb", List.of(Shape.of("", null), Shape.own("A's kind", "filter=kind:${kbKind}", null)));
        // --- memory
        m.put("POST /api/v1/memory", List.of(
                // special case: B's memory pinned to a target called like A's lives in B's tenant
                Shape.own("A's target scope slug", "", "{\"body\": \"b memory\", \"scope\": \"target\", \"target_name\": "
                        + "\"${target}\", \"slug\": \"${memTarget}\"}"),
                Shape.own("A's tenant scope slug", "", "{\"body\": \"b memory\", \"scope\": \"tenant\", \"slug\": \"${memTenant}\"}"),
                Shape.own("A's user-tenant slug", "", "{\"body\": \"b memory\", \"scope\": \"user-tenant\", \"slug\": "
                        + "\"${memUserTenant}\"}")));
        m.put("POST /api/v1/memory/{scope}/{slug}/promote", List.of(Shape.of("to tenant", "{\"to\": \"tenant\"}"),
                Shape.of("to target", "{\"to\": \"target\", \"target_name\": \"${target}\"}")));
        m.put("GET /api/v1/memory", List.of(new Shape("all", "include_expired=true", null, null, true),
                Shape.own("A's slug pattern", "slug_pattern=${memTenant}&include_expired=true", null)));
        m.put("GET /api/v1/retrieve", List.of(new Shape("generic words", "query=" + MEMORY_WORDS.replace(" ", "%20")
                + "&limit=50", null, null, true), Shape.own("A's slug", "query=${memTenant}", null)));
        // --- retrieval quality
        m.put("POST /api/v1/retrieval/eval", List.of(Shape.of("all surfaces", "{}"),
                Shape.own("save a baseline", "", "{\"surface\": \"all\", \"save_baseline\": true}")));
        m.put("GET /api/v1/retrieval/usage", List.of(Shape.of("", null), new Shape("tenant", "view=tenant", null, null, true)));
        // --- docs
        m.put("POST /api/v1/docs/collections", List.of(
                Shape.refused("A's target secret as token", "", "{\"key\": \"b-docs-steal\", \"backend_type\": \"corpus-http\", "
                        + "\"backend_ref\": {\"url\": \"${bCorpusUrl}\", \"secret_ref\": \"${secretRef}\"}}"),
                Shape.refused("A's docs secret", "", "{\"key\": \"b-docs-steal2\", \"backend_type\": \"corpus-http\", "
                        + "\"backend_ref\": {\"url\": \"${bCorpusUrl}\", \"secret_ref\": \"${docSecretRef}\"}}"),
                // special case: collection keys are per tenant (globals excepted); B's collection called like A's
                // is B's own, on B's own backend
                Shape.own("A's key", "", "{\"key\": \"${docKey}\", \"backend_type\": \"corpus-http\", \"backend_ref\": "
                        + "{\"url\": \"${bCorpusUrl}\"}}"),
                // the global key is the platform's namespace: a 409 is expected and says nothing about A
                new Shape("the global key granted to A", "", "{\"key\": \"${globalDocKey}\", \"backend_type\": "
                        + "\"corpus-http\", \"backend_ref\": {\"url\": \"${bCorpusUrl}\"}}", Phase.OWN, false)));
        m.put("PATCH /api/v1/docs/collections/{key}", List.of(Shape.of("description",
                "{\"description\": \"b\", \"backend_ref\": {\"url\": \"${bCorpusUrl}\"}}")));
        m.put("POST /api/v1/docs/collections/{key}/enable", List.of(Shape.of("", null)));
        m.put("POST /api/v1/docs/collections/{key}/disable", List.of(Shape.of("", null)));
        m.put("POST /api/v1/docs/collections/{key}/probe", List.of(Shape.of("", null)));
        m.put("POST /api/v1/docs/collections/{key}/grants/{tenant_id}", List.of(Shape.of("", null)));
        for (String verb : List.of("search", "ask")) {
            m.put("POST /api/v1/docs/" + verb, List.of(
                    Shape.of("all collections", "{\"query\": \"" + DOCS_WORDS + "\", \"collection\": \"all\"}"),
                    Shape.refused("A's collection", "", "{\"query\": \"" + DOCS_WORDS + "\", \"collection\": \"${docKey}\"}"),
                    Shape.refused("A's collection in a list", "", "{\"query\": \"" + DOCS_WORDS + "\", \"collection\": "
                            + "[\"${docKey}\", \"${globalDocKey}\"]}"),
                    new Shape("the global collection granted to A only", "", "{\"query\": \"" + DOCS_WORDS
                            + "\", \"collection\": \"${globalDocKey}\"}", Phase.REFUSED, false)));
        }
        m.put("GET /api/v1/docs/collections", List.of(Shape.of("", null), new Shape("vendor", "vendor=vendor-" + R, null,
                null, true)));
        // --- agent definitions: B naming A's definition and A's principal is refused (principals are per tenant)
        m.put("POST /api/v1/agents", List.of(Shape.refused("A's name and A's principal", "", "{\"name\": \"${agentDef}\", "
                + "\"identity_ref\": \"${agentName}\"}")));
        m.put("PATCH /api/v1/agents/{name}", List.of(Shape.of("disable", "{\"enabled\": false}")));
        m.put("POST /api/v1/agents/{name}/runs", List.of(Shape.of("run A's agent", "{\"input\": \"go\"}")));
        m.put("POST /api/v1/agents/{name}/run-events", List.of(Shape.of("stream A's agent", "{\"input\": \"go\"}")));
        m.put("POST /api/v1/agent-runs/{handle}/cancel", List.of(Shape.of("", null)));
        m.put("POST /api/v1/scheduler/triggers", List.of(Shape.refused("A's agent", "", "{\"kind\": \"event\", "
                + "\"agent_definition\": \"${agentDef}\", \"event_filter\": {}}")));
        m.put("POST /api/v1/scheduler/triggers/{id}/pause", List.of(Shape.of("", null)));
        // --- conventions: slugs are per tenant; B's convention with A's slug is B's own
        m.put("POST /api/v1/conventions", List.of(Shape.own("A's slug", "", "{\"slug\": \"${conventionSlug}\", "
                + "\"title\": \"b title\", \"kind\": \"workflow\", \"body\": \"b body\"}")));
        m.put("PATCH /api/v1/conventions/{slug}", List.of(Shape.of("title and body", "{\"title\": \"b title\", "
                + "\"body\": \"b body\", \"priority\": 1}")));
        m.put("POST /api/v1/conventions/search", List.of(Shape.of("generic words", "{\"query\": \"" + KB_WORDS
                + "\", \"limit\": 50}"), Shape.own("A's slug", "", "{\"query\": \"${conventionSlug}\"}")));
        m.put("GET /api/v1/conventions", List.of(Shape.of("", null), new Shape("operational", "kind=operational", null, null, true)));
        m.put("POST /api/v1/scheduler/triggers/{id}/resume", List.of(Shape.of("", null)));
        // --- topology: node names are per tenant (B's node called like A's is B's own); A's nodes, edges and
        // target are invisible to B, in queries and bodies alike
        String topoEdge = "{\"from\": \"${topoNode}\", \"from_kind\": \"service\", \"kind\": \"depends-on\", "
                + "\"to\": \"b-topo-host\", \"to_kind\": \"host\"}";
        m.put("POST /api/v1/topology/edges", List.of(Shape.own("A's node name", "", topoEdge),
                Shape.refused("A's target as an end", "", "{\"from\": \"b-topo-svc\", \"from_kind\": \"service\", "
                        + "\"kind\": \"depends-on\", \"to\": \"${target}\"}"),
                Shape.refused("A's target, kind target", "", "{\"from\": \"b-topo-svc\", \"from_kind\": \"service\", "
                        + "\"kind\": \"depends-on\", \"to\": \"${alias}\", \"to_kind\": \"target\"}")));
        m.put("POST /api/v1/topology/edges/unannotate", List.of(Shape.refused("A's edge id", "", "{\"edge_id\": "
                + "\"${topoEdge}\"}"), Shape.refused("A's ends", "", "{\"from\": \"${topoNode}\", \"kind\": "
                + "\"depends-on\", \"to\": \"${target}\"}")));
        m.put("POST /api/v1/topology/edges/bulk", List.of(Shape.own("A's node name, dry run", "", "{\"dry_run\": true, "
                + "\"edges\": [" + topoEdge + "]}"), Shape.refused("A's names without kinds", "", "{\"edges\": "
                + "[{\"from\": \"${topoNode}\", \"kind\": \"runs-on\", \"to\": \"${target}\"}]}")));
        m.put("POST /api/v1/topology/refresh", List.of(Shape.refused("A's target", "", "{\"target\": \"${target}\"}"),
                Shape.refused("A's alias", "", "{\"target\": \"${alias}\"}")));
        m.put("GET /api/v1/topology/edges", List.of(Shape.of("", null), Shape.own("from A's node", "from=${topoNode}", null),
                Shape.own("to A's target", "to=${target}", null), Shape.own("conflicts", "conflicts=true", null)));
        for (String walk : List.of("dependencies", "dependents")) {
            m.put("GET /api/v1/topology/" + walk, List.of(Shape.refused("A's node", "node=${topoNode}", null),
                    Shape.refused("A's target", "node=${target}", null), Shape.refused("A's alias", "node=${alias}", null)));
        }
        m.put("GET /api/v1/topology/path", List.of(Shape.refused("A's node to A's target", "from=${topoNode}&to=${target}",
                null)));
        m.put("GET /api/v1/topology/history", List.of(Shape.refused("A's node", "node=${topoNode}&include_edges=true",
                null), Shape.refused("A's target", "node=${target}&include_edges=true", null)));
        m.put("GET /api/v1/topology/timeline", List.of(Shape.of("", null), Shape.refused("A's target", "target=${target}",
                null)));
        m.put("GET /api/v1/topology/diff", List.of(new Shape("the last day", "t1=1d&t2=${soon}", null, null, true)));
        // --- sensors and dashboards: A's target is not B's to sense, A's sensor not B's to put on a dashboard;
        // sensor and dashboard names are per tenant, so B's dashboard called like A's is B's own
        m.put("POST /api/v1/sensors", List.of(Shape.refused("A's target", "", "{\"name\": \"b-sensor\", "
                + "\"connector_id\": \"mtx-1.x\", \"op_id\": \"mtx.item1.get\", \"target\": \"${target}\", "
                + "\"params\": {\"name\": \"x\"}, \"interval_seconds\": 60, \"assertion\": {\"rules\": [{\"state\": "
                + "\"critical\", \"when\": {\"path\": \"/body\", \"eq\": \"down\"}}]}}")));
        m.put("PATCH /api/v1/sensors/{id}", List.of(Shape.of("name", "{\"name\": \"b-renamed\"}")));
        m.put("POST /api/v1/sensors/{id}/pause", List.of(Shape.of("", null)));
        m.put("POST /api/v1/sensors/{id}/resume", List.of(Shape.of("", null)));
        m.put("POST /api/v1/dashboards", List.of(
                Shape.refused("A's sensor", "", "{\"name\": \"b-dash\", \"sensor_ids\": [\"${sensor}\"]}"),
                Shape.own("A's name", "", "{\"name\": \"${dashboardName}\"}")));
        // --- runbooks: A's template slug is B's own namespace; A's template and runs are invisible to B
        m.put("POST /api/v1/runbooks/templates", List.of(Shape.own("A's slug", "", "{\"slug\": \"${runbook}\", "
                + "\"yaml\": \"title: b\\nsteps:\\n  - {instruction: b, verify: b}\\n\"}")));
        m.put("PUT /api/v1/runbooks/templates/{slug}", List.of(Shape.of("yaml", "{\"yaml\": \"title: b\\nsteps:\\n  - "
                + "{instruction: b, verify: b}\\n\"}")));
        m.put("POST /api/v1/runbooks/templates/{slug}/publish", List.of(Shape.of("", null)));
        m.put("POST /api/v1/runbooks/templates/{slug}/deprecate", List.of(Shape.of("version", "{\"version\": 1}")));
        m.put("POST /api/v1/runbooks/runs", List.of(Shape.refused("A's runbook on A's target", "", "{\"slug\": "
                + "\"${runbook}\", \"target\": \"${target}\"}")));
        m.put("POST /api/v1/runbooks/runs/{id}/next", List.of(Shape.of("", "{}"), Shape.of("yes",
                "{\"verify_response\": \"yes\"}")));
        m.put("POST /api/v1/runbooks/runs/{id}/abort", List.of(Shape.of("reason", "{\"reason\": \"b\"}")));
        m.put("GET /api/v1/runbooks/runs", List.of(Shape.of("", null), Shape.own("A's slug", "slug=${runbook}", null)));
        // --- broadcast: B's feed never shows A's activity; A's override pattern set by B is B's own rule
        m.put("POST /api/v1/broadcast/announcements", List.of(Shape.of("on A's target", "{\"activity\": \"b-announces\", "
                + "\"target\": \"${target}\"}")));
        m.put("POST /api/v1/broadcast/overrides", List.of(Shape.own("A's pattern", "", "{\"op_id_pattern\": "
                + "\"${overridePattern}\", \"detail\": \"full\"}")));
        m.put("GET /api/v1/broadcast/recent", List.of(Shape.of("", null), Shape.own("A's target", "target=${target}", null)));
        m.put("GET /api/v1/broadcast/overrides", List.of(Shape.of("", null), Shape.own("A's pattern",
                "op_id_pattern=${overridePattern}", null)));
        m.put("GET /api/v1/agent-runs", List.of(Shape.of("", null), Shape.own("A's agent", "agent_name=${agentDef}", null)));
        // --- events
        m.put("POST /api/v1/event-sources", List.of(
                // slugs are global routing keys: naming A's slug is a 409, with no decoy comparison (a free
                // made-up slug would simply be created); the answer may echo only what B sent
                new Shape("A's slug", "", "{\"name\": \"b-es\", \"slug\": \"${eventSlug}\", \"kind\": \"generic-json\", "
                        + "\"auth_strategy\": \"static-header\", \"secret\": \"${bSecret}\"}", Phase.OWN, false),
                // special case: source names are per tenant; B's source called like A's is B's own
                Shape.own("A's name", "", "{\"name\": \"${eventSourceName}\", \"kind\": \"generic-json\", "
                        + "\"auth_strategy\": \"static-header\", \"secret\": \"${bSecret}\"}")));
        m.put("PATCH /api/v1/event-sources/{slug}", List.of(Shape.of("rename", "{\"name\": \"b-renamed\"}"),
                Shape.of("new secret", "{\"secret\": \"${bSecret}\", \"overlap_seconds\": 0}")));
        m.put("POST /api/v1/event-sources/{slug}/pause", List.of(Shape.of("", null)));
        m.put("POST /api/v1/event-sources/{slug}/resume", List.of(Shape.of("", null)));
        m.put("GET /api/v1/events", List.of(Shape.of("", null), Shape.own("A's source", "source=${eventSlug}", null),
                Shape.own("A's source name", "source=${eventSourceName}", null)));
        // --- audit
        m.put("GET /api/v1/audit", List.of(Shape.of("", null),
                Shape.own("A's target", "target=${target}", null), Shape.own("A's alias", "target=${alias}", null),
                Shape.own("A's audit id", "audit_id=${audit}", null), Shape.own("A's session", "session_id=${session}", null),
                Shape.own("A's work_ref", "work_ref=${workRef}", null),
                Shape.own("A's principal", "principal=${aOperatorSub}", null)));
        m.put("GET /api/v1/audit/mine", List.of(new Shape("since", "since=1h", null, null, true)));
        m.put("GET /api/v1/audit/reflex", List.of(new Shape("since", "since=1h", null, null, true)));
        m.put("PUT /api/v1/audit/retention", List.of(Shape.own("B's own retention", "", "{\"days\": 400}")));
        m.put("POST /api/v1/audit/archives", List.of(Shape.refused("a partition", "", "{\"partition\": \"audit_rows_legacy\"}")));
        m.put("POST /api/v1/audit/archives/{name}/verify", List.of(Shape.of("", null)));
        m.put("POST /api/v1/audit/archives/{name}/restore", List.of(Shape.of("", null)));
        // --- tenancy: B's own policy
        m.put("PATCH /api/v1/tenants/current/flight-recorder-policy", List.of(Shape.own("B's own policy", "",
                "{\"enabled\": false, \"retention_days\": 3}")));
        m.put("PUT /api/v1/tenants/current/mail-recipient-policy", List.of(Shape.own("B's own policy", "",
                "{\"allowlist\": \"b.example.com\"}")));
        m.put("PUT /api/v1/tenants/current/approval-notifications", List.of(Shape.own("B's own settings", "",
                "{\"mail_recipients\": \"oncall@b.example.com\"}")));
        m.put("PUT /api/v1/tenants/current/display-name", List.of(Shape.own("B's own name", "",
                "{\"display_name\": \"B's tenant\"}")));
        m.put("POST /api/v1/operations/runs/{handle}/cancel", List.of(Shape.of("", null)));
        return m;
    }

    private String bSpecJson() throws IOException {
        return JSON.writeValueAsString(SpecIngestIT.spec("B spec", "1.0", 1));
    }

    @Test
    void tenantBNeitherSeesNorChangesAnythingOfTenantA() throws Exception {
        long started = System.nanoTime();
        setUpTenantA();
        buildDecoysAndConstants();
        callers.put("B tenant_admin", issuer.token(bAdminSub, B, "tenant_admin"));
        callers.put("B operator", issuer.token(bOperatorSub, B, "operator"));

        List<ApiRoutes.Route> routes = kernel.kernel().api().routes();
        List<ApiRoutes.Route> covered = new ArrayList<>();
        List<Probe> probes = new ArrayList<>();
        Map<String, List<Opt>> options = pathOptions();
        Map<String, List<Shape>> shapes = shapes();
        Set<String> shapeKeysUsed = new LinkedHashSet<>();
        for (ApiRoutes.Route r : routes) {
            if (r.role().isEmpty()) {
                // public routes (health, info, openapi, /mcp itself, the event ingest route whose slug is a global
                // routing key authenticated by the source's own secret) carry no tenant: skipped here, /mcp is
                // exercised below tool by tool
                continue;
            }
            covered.add(r);
            String key = r.method() + " " + r.path();
            List<Fill> fills = fills(r.path(), options);
            if (fills == null) {
                continue;
            }
            List<Shape> bodies = shapes.get(key);
            if (bodies == null) {
                if (Set.of("POST", "PATCH", "PUT").contains(r.method())) {
                    findings.add("MATRIX INCOMPLETE: no body for " + key + " — add one to TenantMatrixIT.shapes()");
                    continue;
                }
                bodies = List.of(Shape.of("", null));
            } else {
                shapeKeysUsed.add(key);
            }
            for (var fill : fills) {
                for (Shape s : bodies) {
                    String path = r.path();
                    for (var e : fill.values().entrySet()) {
                        path = path.replace("{" + e.getKey() + "}", e.getValue());
                    }
                    String query = Stream.of(fill.opt() == null ? "" : fill.opt().query(), s.query())
                            .filter(q -> q != null && !q.isEmpty()).reduce((x, y) -> x + "&" + y).orElse("");
                    Phase phase = combine(fill.opt() == null ? null : fill.opt().phase(), s.phase());
                    boolean compare = (fill.opt() == null || fill.opt().compare()) && s.compare();
                    String label = Stream.of(fill.opt() == null ? "" : fill.opt().values().toString(), s.label())
                            .filter(x -> !x.isEmpty()).reduce((x, y) -> x + " " + y).orElse("");
                    probes.add(new Probe(key, r.method(), path + (query.isEmpty() ? "" : "?" + query), s.body(), phase,
                            compare, label));
                }
            }
        }
        Set<String> stale = new LinkedHashSet<>(shapes.keySet());
        stale.removeAll(shapeKeysUsed);
        stale.forEach(k -> findings.add("MATRIX STALE: TenantMatrixIT.shapes() has a body for " + k
                + ", a route the kernel does not declare"));
        assertThat(findings).as("the matrix does not cover the kernel's routes; extend TenantMatrixIT").isEmpty();

        // A's views first: reading them may itself write (audit), so the snapshot comes after
        Map<String, JsonNode> aViewsBefore = aViews();
        Map<String, String> before = stableSnapshot();
        rememberRows(before);
        int targetHitsBefore = TARGET_HITS.size();
        int corpusBefore = CORPUS_SEEN.size();

        // 1. blind: B knows nothing of A
        runPhase(probes, Phase.BLIND, "BLIND", false);
        Set<String> tools = mcpTools();
        mcpPhase(tools, Phase.BLIND);
        // 2. A's objects named: refused, and indistinguishable from objects that do not exist
        runPhase(probes, Phase.REFUSED, "REFUSED", false);
        mcpPhase(tools, Phase.REFUSED);
        mcpResourcesAndHeader();
        // 3. B's own namespace with A's names
        runPhase(probes, Phase.OWN, "OWN", true);
        mcpPhase(tools, Phase.OWN);
        // 4. the lists again, and every GET of step 2, now that B owns look-alikes of A's names: B's own
        // objects called like A's must show B's content only (no cache or lookup keyed by name alone)
        runPhase(probes, Phase.BLIND, "BLIND2", true);
        revisit(probes);
        // 5. every changing route of step 2 again, now acting on B's own look-alikes (renamed, re-secreted,
        // paused, revoked, deleted...): it must change B's object, never A's of the same name
        lookalikes(probes);
        // 6. the acting-tenant header: only a platform_admin may point it at another tenant
        actingTenantHeader(probes);

        Map<String, String> after = stableSnapshot();
        compareSnapshots(before, after);
        String aAuth = LoopbackHttp.basic("svc", PASSWORD);
        for (String hit : TARGET_HITS.subList(targetHitsBefore, TARGET_HITS.size())) {
            if (hit.endsWith(aAuth)) {
                findings.add("A's TARGET CALLED WITH A's CREDENTIAL during B's pass: " + hit);
            }
        }
        for (String seen : CORPUS_SEEN.subList(corpusBefore, CORPUS_SEEN.size())) {
            if (seen.contains(R) && !seen.startsWith("/bdocs")) {
                findings.add("A's DOC BACKEND called during B's pass: " + seen);
            }
            if (seen.contains("auth=Bearer")) {
                findings.add("A CREDENTIAL SENT to a backend during B's pass: " + seen);
            }
        }
        checkBRowsStayInBScope();
        Map<String, JsonNode> aViewsAfter = aViews();
        for (var e : aViewsBefore.entrySet()) {
            if (!Objects.equals(e.getValue(), aViewsAfter.get(e.getKey()))) {
                findings.add("A's VIEW CHANGED: " + e.getKey() + "\n    before: " + cut(e.getValue().toString(), 600)
                        + "\n    after:  " + cut(String.valueOf(aViewsAfter.get(e.getKey())), 600));
            }
        }
        assertACanStillWork();
        positiveControls(after);

        long seconds = Duration.ofNanos(System.nanoTime() - started).toSeconds();
        Path report = Path.of("target", "tenant-matrix.txt");
        Files.createDirectories(report.getParent());
        Files.writeString(report, String.join("\n", log) + "\n\nNOTES\n" + String.join("\n", notes) + "\n\nFINDINGS\n"
                + String.join("\n", findings) + "\n");
        for (String n : notes) {
            System.out.println("TenantMatrixIT note: " + n);
        }
        for (String f : findings) {
            System.out.println("TenantMatrixIT FINDING: " + f);
        }
        System.out.println("TenantMatrixIT: " + covered.size() + " routes x " + callers.size() + " callers, " + tools.size()
                + " MCP tools, " + requests + " requests, " + leaks + " leaks, " + bodiesCompared + " refusals equal to a "
                + "made-up object's in their whole body");
        System.out.println("TenantMatrixIT: " + findings.size() + " findings, " + notes.size() + " notes, " + seconds
                + " s; the whole matrix is in " + report.toAbsolutePath());
        assertThat(findings).as("tenant isolation findings").isEmpty();
        // 372 when written: the body comparison ran over the refusals, it did not go quiet
        assertThat(bodiesCompared).as("refusals compared with a made-up object's in their whole body")
                .isGreaterThan(300);
    }

    private static Phase combine(Phase a, Phase b) {
        if (a == Phase.REFUSED || b == Phase.REFUSED) {
            return Phase.REFUSED;
        }
        if (a == Phase.OWN || b == Phase.OWN) {
            return Phase.OWN;
        }
        return Phase.BLIND;
    }

    /** One way to fill a route's path parameters; {@code opt} null for a route without any. */
    record Fill(Map<String, String> values, Opt opt) {
    }

    /** Every way to fill the route's path parameters; null (and a finding) when one cannot be filled. */
    private List<Fill> fills(String path, Map<String, List<Opt>> options) {
        List<String> params = new ArrayList<>();
        Matcher m = PARAM.matcher(path);
        while (m.find()) {
            params.add(m.group(1));
        }
        if (params.isEmpty()) {
            return List.of(new Fill(Map.of(), null));
        }
        List<Fill> out = List.of(new Fill(Map.of(), new Opt(Map.of(), null, true, "")));
        for (String p : params) {
            List<Fill> next = new ArrayList<>();
            String prefix = path.substring(0, path.indexOf("{" + p + "}")) + "|" + p;
            for (Fill partial : out) {
                if (partial.values().containsKey(p)) {
                    next.add(partial);
                    continue;
                }
                List<Opt> opts = options.get(prefix);
                if (opts == null) {
                    findings.add("MATRIX INCOMPLETE: route " + path + " has path parameter {" + p + "} that "
                            + "TenantMatrixIT cannot fill (no entry '" + prefix + "' in pathOptions())");
                    return null;
                }
                for (Opt o : opts) {
                    Map<String, String> merged = new LinkedHashMap<>(partial.values());
                    o.values().forEach((k, v) -> {
                        if (params.contains(k)) {
                            merged.putIfAbsent(k, v);
                        }
                    });
                    Opt prev = partial.opt();
                    next.add(new Fill(merged, new Opt(merged, combine(prev.phase(), o.phase()),
                            prev.compare() && o.compare(), Stream.of(prev.query(), o.query()).filter(q -> !q.isEmpty())
                                    .reduce((x, y) -> x + "&" + y).orElse(""))));
                }
            }
            out = next;
        }
        return out;
    }

    private void runPhase(List<Probe> probes, Phase phase, String label, boolean cumulative) {
        for (Probe p : probes) {
            if (p.phase() != phase) {
                continue;
            }
            for (var caller : callers.entrySet()) {
                String path = expand(p.path(), aFull);
                String body = p.body() == null ? null : expand(p.body(), aFull);
                TestKernel.Response r = kernel.send(p.method(), path, caller.getValue(), body, Map.of());
                requests++;
                String request = p.method() + " " + path + " " + Objects.toString(body, "");
                String where = label + " " + caller.getKey() + ": " + p.method() + " " + path
                        + (body == null ? "" : " " + cut(body, 300)) + (p.label().isEmpty() ? "" : "  [" + p.label() + "]");
                log.add(String.format("%-8s %-15s %3d %-28s %s", label, caller.getKey(), r.status(), errorCode(r.body()),
                        p.method() + " " + path + (p.label().isEmpty() ? "" : "  [" + p.label() + "]")));
                check(where, request, r.status(), r.body(), cumulative);
                knownToB.addAll(valuesIn(request));
                TestKernel.Response d = phase != Phase.BLIND && p.compare() ? decoy(p, caller.getValue()) : null;
                if (phase == Phase.REFUSED && !REFUSALS.contains(r.status())) {
                    if (r.status() / 100 == 2 && d != null && d.status() == r.status()
                            && errorCode(d.body()).equals(errorCode(r.body()))) {
                        // not refused, but the same answer as for a made-up object: nothing of A was resolved (the
                        // database check below proves nothing of A changed); listed as a note
                        notes.add("2xx indistinguishable from a made-up object (" + r.status() + " " + errorCode(r.body())
                                + "): " + where + "\n    answer: " + cut(r.body(), 400));
                    } else {
                        findings.add("NOT REFUSED (" + r.status() + "): " + where + "\n    answer: " + cut(r.body(), 700));
                    }
                }
                if (d != null && (d.status() != r.status() || !errorCode(d.body()).equals(errorCode(r.body())))) {
                    findings.add("EXISTENCE ORACLE: " + where + "\n    A's object: " + r.status() + " "
                            + cut(r.body(), 300) + "\n    made-up:    " + d.status() + " " + cut(d.body(), 300));
                } else if (d != null && phase == Phase.REFUSED) {
                    sameBodyAsMadeUp(where, p.route() + "  [" + p.label() + "]", r.body(), d.body());
                }
                followStatusUrl(where, caller.getValue(), r, cumulative);
            }
        }
    }

    private void lookalikes(List<Probe> probes) {
        List<Probe> changing = probes.stream().filter(p -> p.phase() == Phase.REFUSED && !p.method().equals("GET")
                && p.route().contains("{")).sorted(Comparator.comparingInt(p -> p.method().equals("DELETE") ? 2
                        : p.label().contains("rename") ? 1 : 0)).toList(); // renames and deletes last: the rest first
        for (Probe p : changing) {
            for (var caller : callers.entrySet()) {
                String path = expand(p.path(), aFull);
                String body = p.body() == null ? null : expand(p.body(), aFull);
                TestKernel.Response r = kernel.send(p.method(), path, caller.getValue(), body, Map.of());
                requests++;
                log.add(String.format("%-8s %-15s %3d %-28s %s", "LOOKALIK", caller.getKey(), r.status(),
                        errorCode(r.body()), p.method() + " " + path + (p.label().isEmpty() ? "" : "  [" + p.label() + "]")));
                String where = "LOOKALIKE " + caller.getKey() + ": " + p.method() + " " + path + (body == null ? ""
                        : " " + cut(body, 300));
                if (r.status() == 502 && errorCode(r.body()).startsWith("connector_")) {
                    // B's own look-alike target has no usable secret: the connector fails upstream (502), on B's
                    // own secret path (the leak check below holds it to B's namespace)
                    notes.add("502 from B's own look-alike target: " + where + "\n    answer: " + cut(r.body(), 300));
                    check(where, p.method() + " " + path + " " + body, 200, r.body(), true);
                } else {
                    check(where, p.method() + " " + path + " " + body, r.status(), r.body(), true);
                }
                followStatusUrl("LOOKALIKE " + p.method() + " " + path, caller.getValue(), r, true);
            }
        }
    }

    private void revisit(List<Probe> probes) throws IOException {
        for (Probe p : probes) {
            if (p.phase() != Phase.REFUSED || !p.method().equals("GET")) {
                continue;
            }
            for (var caller : callers.entrySet()) {
                String path = expand(p.path(), aFull);
                TestKernel.Response r = kernel.get(path, caller.getValue());
                requests++;
                log.add(String.format("%-8s %-15s %3d %-28s %s", "REVISIT", caller.getKey(), r.status(), errorCode(r.body()),
                        "GET " + path + (p.label().isEmpty() ? "" : "  [" + p.label() + "]")));
                check("REVISIT " + caller.getKey() + ": GET " + path + "  [" + p.label() + "]", "GET " + path, r.status(),
                        r.body(), true);
            }
        }
        for (String uri : List.of("svc://kb/${kbSlug}", "svc://memory/tenant/${memTenant}",
                "svc://memory/user-tenant/${memUserTenant}")) {
            for (var caller : mcpCallers.entrySet()) {
                String u = expand(uri, aFull);
                var r = mcpSend(caller.getValue(), "resources/read", "\"uri\": \"" + u + "\"", u, Map.of());
                requests++;
                log.add(String.format("%-8s %-15s %3d %-28s %s", "REVISIT", caller.getKey(), r.status(), rpcError(r.body()),
                        "resources/read " + u));
                check("REVISIT MCP " + caller.getKey() + ": resources/read " + u, u, r.status(), r.body(), true);
                if (JSON.readTree(r.body()).path("error").path("code").asInt() == -32603) {
                    findings.add("MCP INTERNAL ERROR: resources/read " + u + ": " + cut(r.body(), 400));
                }
            }
        }
    }

    /** A 2xx answer with a status_url (an async run): follow it to the end; it must not succeed on A's object. */
    private void followStatusUrl(String where, String token, TestKernel.Response r, boolean cumulative) {
        if (r.status() / 100 != 2 || !r.body().contains("\"status_url\"")) {
            return;
        }
        String url = r.json().path("status_url").asText();
        JsonNode run = null;
        for (int i = 0; i < 100; i++) {
            TestKernel.Response s = kernel.get(url, token);
            requests++;
            check(where + " -> GET " + url, where, s.status(), s.body(), cumulative);
            run = s.status() == 200 ? s.json() : null;
            if (run == null || !run.path("status").asText().equals("running")) {
                break;
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        notes.add("  ... its run ended: " + (run == null ? "not readable" : cut(run.toString(), 400)));
        if (run != null && run.path("status").asText().equals("succeeded") && where.startsWith("REFUSED")) {
            findings.add("ASYNC RUN SUCCEEDED on A's object: " + where + "\n    run: " + cut(run.toString(), 700));
        }
    }

    private TestKernel.Response decoy(Probe p, String token) {
        requests++;
        return kernel.send(p.method(), expand(p.path(), decoys), token, p.body() == null ? null : expand(p.body(), decoys),
                Map.of());
    }

    /** No 5xx, and nothing of A in the answer that B did not send. */
    private void check(String where, String request, int status, String body, boolean cumulative) {
        if (status >= 500) {
            findings.add("5xx (" + status + "): " + where + "\n    answer: " + cut(body, 700));
        }
        List<String> leaked = leaked(body, request, cumulative);
        if (!leaked.isEmpty()) {
            leaks++;
            findings.add("LEAK: " + where + "\n    A's data in the answer: " + leaked + "\n    answer: " + cut(body, 900));
        }
    }

    private Set<String> valuesIn(String request) {
        Set<String> in = new LinkedHashSet<>();
        for (String v : aVals.values()) {
            if (!v.equals(R) && request.contains(v)) {
                in.add(v);
            }
        }
        return in;
    }

    private List<String> leaked(String body, String request, boolean cumulative) {
        Set<String> excused = new LinkedHashSet<>(valuesIn(request));
        if (cumulative) {
            excused.addAll(knownToB);
        }
        String rest = body;
        for (String v : excused.stream().sorted(Comparator.comparingInt(String::length).reversed()).toList()) {
            rest = rest.replace(v, "\u0000");
        }
        List<String> out = new ArrayList<>();
        int at = rest.indexOf(R);
        if (at >= 0) {
            out.add("…" + rest.substring(Math.max(0, at - 60), Math.min(rest.length(), at + 40)).replace('\u0000', '#') + "…");
        }
        for (var e : aVals.entrySet()) {
            if (!e.getValue().contains(R) && rest.contains(e.getValue())) {
                out.add(e.getKey() + "=" + e.getValue());
            }
        }
        return out;
    }

    // ------------------------------------------------------------------------------------------------
    // the acting-tenant header and MCP
    // ------------------------------------------------------------------------------------------------

    private void actingTenantHeader(List<Probe> probes) {
        Set<String> done = new LinkedHashSet<>();
        String token = callers.values().iterator().next();
        for (Probe p : probes) {
            if (!done.add(p.route())) {
                continue;
            }
            String path = expand(p.path(), aFull);
            String body = p.body() == null ? null : expand(p.body(), aFull);
            TestKernel.Response r = kernel.send(p.method(), path, token, body, Map.of("X-Svc-Tenant", A.toString()));
            requests++;
            String where = "X-Svc-Tenant=A B tenant_admin: " + p.method() + " " + path;
            log.add(String.format("%-8s %-15s %3d %-28s %s", "HEADER", "B tenant_admin", r.status(), errorCode(r.body()),
                    p.method() + " " + path));
            check(where, "X-Svc-Tenant " + A + " " + p.method() + " " + path + " " + body, r.status(), r.body(), false);
            if (r.status() != 403) {
                findings.add("ACTING-TENANT HEADER NOT REFUSED (" + r.status() + "): " + where + "\n    answer: "
                        + cut(r.body(), 500));
            }
        }
    }

    /** Arguments per MCP tool: every listed tool needs an entry. */
    private static Map<String, List<Shape>> toolArguments() {
        Map<String, List<Shape>> m = new LinkedHashMap<>();
        String call = "{\"connector_id\": \"mtx-1.x\", \"op_id\": \"mtx.item0.list\", \"target\": \"%s\", \"params\": {\"count\": 3}}";
        m.put("add_to_memory", List.of(
                Shape.own("A's target scope slug", "", "{\"body\": \"b memory\", \"scope\": \"target\", \"target_name\": "
                        + "\"${target}\", \"slug\": \"${memTarget}\"}"),
                Shape.own("A's tenant slug", "", "{\"body\": \"b memory\", \"scope\": \"tenant\", \"slug\": \"${memTenant}\"}")));
        m.put("search_memory", List.of(Shape.of("generic words", "{\"query\": \"" + MEMORY_WORDS + "\", \"limit\": 50}"),
                Shape.own("A's slug", "", "{\"query\": \"${memTenant}\"}")));
        m.put("add_to_knowledge", List.of(Shape.own("A's slug", "", "{\"slug\": \"${kbSlug}\", \"body\": \"b body\"}")));
        m.put("search_knowledge", List.of(Shape.of("generic words", "{\"query\": \"" + KB_WORDS + "\", \"limit\": 50}"),
                Shape.own("A's slug", "", "{\"query\": \"${kbSlug}\", \"filters\": {\"kind\": \"${kbKind}\"}}")));
        for (String t : List.of("search_docs", "ask_docs")) {
            m.put(t, List.of(Shape.of("all", "{\"query\": \"" + DOCS_WORDS + "\", \"collection\": \"all\"}"),
                    Shape.refused("A's collection", "", "{\"query\": \"" + DOCS_WORDS + "\", \"collection\": \"${docKey}\"}"),
                    new Shape("global granted to A", "", "{\"query\": \"" + DOCS_WORDS + "\", \"collection\": "
                            + "\"${globalDocKey}\"}", Phase.REFUSED, false)));
        }
        m.put("list_doc_collections", List.of(Shape.of("", "{}")));
        m.put("list_targets", List.of(Shape.of("", "{}"), Shape.own("A's name as cursor", "", "{\"cursor\": \"${target}\"}")));
        m.put("svc_connector_list", List.of(Shape.of("all", "{\"status\": \"all\"}")));
        m.put("list_operation_groups", List.of(Shape.refused("A's connector", "", "{\"connector_id\": \"${connector}\"}"),
                Shape.own("the plugin connector A edited", "", "{\"connector_id\": \"mtx-1.x\"}")));
        m.put("search_operations", List.of(
                Shape.refused("A's connector", "", "{\"connector_id\": \"${connector}\", \"query\": \"list things\"}"),
                Shape.own("the plugin connector A edited", "", "{\"connector_id\": \"mtx-1.x\", \"query\": \"show one item\"}")));
        for (String t : List.of("preview_operation", "call_operation")) {
            m.put(t, List.of(Shape.refused("A's target", "", call.formatted("${target}")),
                    Shape.refused("A's alias", "", call.formatted("${alias}")),
                    Shape.refused("A's connector", "", "{\"connector_id\": \"${connector}\", \"op_id\": \"${ingestedOp}\", "
                            + "\"target\": \"${target}\"}")));
        }
        m.put("result_query", List.of(Shape.refused("A's result handle", "", "{\"handle_id\": \"${resultHandle}\"}"),
                Shape.refused("A's run handle", "", "{\"handle_id\": \"${runHandle}\"}")));
        return m;
    }

    private final Map<String, String> mcpCallers = new LinkedHashMap<>();

    private Set<String> mcpTools() throws IOException {
        mcpCallers.put("B mcp tenant_admin", issuer.mcpToken(bAdminSub, B, "tenant_admin"));
        mcpCallers.put("B mcp operator", issuer.mcpToken(bOperatorSub, B, "operator"));
        Set<String> tools = new LinkedHashSet<>();
        for (String token : mcpCallers.values()) {
            var r = mcpSend(token, "tools/list", "", null, Map.of());
            requests++;
            JSON.readTree(r.body()).path("result").path("tools").forEach(t -> tools.add(t.path("name").asText()));
        }
        assertThat(tools).as("tools/list").isNotEmpty();
        for (String t : tools) {
            if (!toolArguments().containsKey(t)) {
                findings.add("MATRIX INCOMPLETE: no arguments for MCP tool " + t + " — add them to TenantMatrixIT.toolArguments()");
            }
        }
        return tools;
    }

    private void mcpPhase(Set<String> tools, Phase phase) throws IOException {
        Map<String, List<Shape>> args = toolArguments();
        for (String t : tools) {
            for (Shape s : args.getOrDefault(t, List.of())) {
                Phase p = s.phase() == null ? Phase.BLIND : s.phase();
                if (p != phase) {
                    continue;
                }
                for (var caller : mcpCallers.entrySet()) {
                    mcpProbe(caller.getKey(), caller.getValue(), t, s, p);
                }
            }
        }
    }

    private void mcpResourcesAndHeader() throws IOException {
        // resources: A's kb entries and memory as svc:// URIs
        for (String uri : List.of("svc://kb/${kbSlug}", "svc://kb/${kbIngestedSlug}", "svc://memory/tenant/${memTenant}",
                "svc://memory/user-tenant/${memUserTenant}", "svc://memory/user/${memUser}")) {
            for (var caller : mcpCallers.entrySet()) {
                String u = expand(uri, aFull);
                var r = mcpSend(caller.getValue(), "resources/read", "\"uri\": \"" + u + "\"", u, Map.of());
                requests++;
                String where = "MCP " + caller.getKey() + ": resources/read " + u;
                log.add(String.format("%-8s %-15s %3d %-28s %s", "MCP", caller.getKey(), r.status(), rpcError(r.body()),
                        "resources/read " + u));
                check(where, u, r.status(), r.body(), false);
                mustBeRefused(where, r);
                String madeUp = expand(uri, decoys);
                var d = mcpSend(caller.getValue(), "resources/read", "\"uri\": \"" + madeUp + "\"", madeUp, Map.of());
                requests++;
                if (d.status() != r.status() || !rpcError(d.body()).equals(rpcError(r.body()))) {
                    findings.add("EXISTENCE ORACLE: " + where + "\n    A's object: " + r.status() + " " + cut(r.body(), 300)
                            + "\n    made-up:    " + d.status() + " " + cut(d.body(), 300));
                } else {
                    sameBodyAsMadeUp(where, "MCP resources/read " + uri, r.body(), d.body());
                }
            }
        }
        // the instructions (stateless revision: server/discover) pack B's operational conventions, never A's
        for (var caller : mcpCallers.entrySet()) {
            var r = mcpSend(caller.getValue(), "server/discover", "", null, Map.of());
            requests++;
            String where = "MCP " + caller.getKey() + ": server/discover";
            log.add(String.format("%-8s %-15s %3d %-28s %s", "MCP", caller.getKey(), r.status(), rpcError(r.body()),
                    "server/discover"));
            check(where, "", r.status(), r.body(), false);
        }
        // the acting-tenant header on MCP
        for (var caller : mcpCallers.entrySet()) {
            var r = mcpSend(caller.getValue(), "tools/call", "\"name\": \"list_targets\", \"arguments\": {}", "list_targets",
                    Map.of("X-Svc-Tenant", A.toString()));
            requests++;
            String where = "MCP " + caller.getKey() + " X-Svc-Tenant=A: list_targets";
            log.add(String.format("%-8s %-15s %3d %-28s %s", "MCP", caller.getKey(), r.status(), rpcError(r.body()),
                    "X-Svc-Tenant=A list_targets"));
            check(where, A.toString(), r.status(), r.body(), false);
            if (r.status() != 403) {
                findings.add("ACTING-TENANT HEADER NOT REFUSED on MCP (" + r.status() + "): " + where + "\n    answer: "
                        + cut(r.body(), 500));
            }
        }
    }

    private void mcpProbe(String callerName, String token, String tool, Shape s, Phase phase) throws IOException {
        String arguments = expand(s.body(), aFull);
        var r = mcpSend(token, "tools/call", "\"name\": \"" + tool + "\", \"arguments\": " + arguments, tool, Map.of());
        requests++;
        String where = "MCP " + phase + " " + callerName + ": " + tool + " " + cut(arguments, 300);
        log.add(String.format("%-8s %-15s %3d %-28s %s", "MCP " + phase, callerName, r.status(), rpcError(r.body()),
                tool + " " + arguments));
        check(where, arguments, r.status(), r.body(), phase == Phase.OWN);
        if (phase == Phase.REFUSED) {
            mustBeRefused(where, r);
        }
        if (phase != Phase.BLIND) {
            if (s.compare()) {
                var d = mcpSend(token, "tools/call", "\"name\": \"" + tool + "\", \"arguments\": " + expand(s.body(), decoys),
                        tool, Map.of());
                requests++;
                if (!rpcError(d.body()).equals(rpcError(r.body()))) {
                    findings.add("EXISTENCE ORACLE: " + where + "\n    A's object: " + cut(r.body(), 300)
                            + "\n    made-up:    " + cut(d.body(), 300));
                } else if (phase == Phase.REFUSED) {
                    sameBodyAsMadeUp(where, "MCP " + tool + "  [" + s.label() + "]", r.body(), d.body());
                }
            }
        }
        knownToB.addAll(valuesIn(arguments));
    }

    private void mustBeRefused(String where, TestKernel.Response r) throws IOException {
        JsonNode j = JSON.readTree(r.body());
        boolean refused = r.status() >= 400 && r.status() < 500 || j.has("error")
                || j.path("result").path("isError").asBoolean();
        if (!refused) {
            findings.add("NOT REFUSED on MCP: " + where + "\n    answer: " + cut(r.body(), 700));
        }
        if (j.path("error").path("code").asInt() == -32603) {
            findings.add("MCP INTERNAL ERROR: " + where + "\n    answer: " + cut(r.body(), 500));
        }
    }

    private static String rpcError(String body) {
        try {
            JsonNode j = JSON.readTree(body);
            if (j.has("error")) {
                return j.path("error").path("code").asText() + " " + j.path("error").path("data").path("reason").asText();
            }
            if (j.path("result").path("isError").asBoolean()) {
                String text = j.path("result").path("content").path(0).path("text").asText();
                Matcher m = Pattern.compile("\"error\"\\s*:\\s*\"([a-z_]+)\"|([a-z]+_[a-z_]+)").matcher(text);
                return "isError " + (m.find() ? Objects.toString(m.group(1), m.group(2)) : "");
            }
            return "ok";
        } catch (IOException e) {
            return "not-json";
        }
    }

    private static TestKernel.Response mcpSend(String token, String method, String params, String name,
                                               Map<String, String> extra) {
        String body = "{\"jsonrpc\":\"2.0\",\"id\":\"m1\",\"method\":\"" + method + "\",\"params\":{" + params
                + (params.isEmpty() ? "" : ",") + "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                + "\"io.modelcontextprotocol/clientCapabilities\":{}}}}";
        Map<String, String> h = new LinkedHashMap<>(Map.of("MCP-Protocol-Version", "2026-07-28", "Mcp-Method", method,
                "Accept", "application/json, text/event-stream"));
        if (name != null) {
            h.put("Mcp-Name", name);
        }
        h.putAll(extra);
        return kernel.send("POST", "/mcp", token, body, h);
    }

    // ------------------------------------------------------------------------------------------------
    // what must not change
    // ------------------------------------------------------------------------------------------------

    /**
     * Per table with a tenant_id column and per tenant_id: row count and an md5 of the rows. The audit chain is left
     * out (its links, heads, seals and rollups): the chainer links committed rows in the background. The
     * partitions of audit_rows are read through it.
     */
    private Map<String, String> snapshot() {
        List<String> tables = jdbc.query("SELECT c.table_name FROM information_schema.columns c JOIN "
                + "information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name "
                + "WHERE c.column_name = 'tenant_id' AND c.table_schema = current_schema() AND t.table_type = 'BASE TABLE' "
                + "AND to_regclass(c.table_name) NOT IN (SELECT inhrelid FROM pg_inherits) "
                + "AND c.table_name NOT IN ('audit_links', 'audit_chain_heads', 'audit_seals', 'audit_principals', "
                + "'audit_target_principals') "
                + "ORDER BY 1", rs -> rs.getString(1));
        assertThat(tables).as("tables with a tenant_id column").contains("targets_targets", "audit_rows");
        Map<String, String> out = new TreeMap<>();
        for (String table : tables) {
            String t = "t::text"; // an audit row is never rewritten: its link is in audit_links (V059)
            for (String[] row : jdbc.query("SELECT coalesce(tenant_id::text, 'null'), count(*), "
                    + "md5(string_agg(" + t + ", '|' ORDER BY " + t + ")) FROM \"" + table + "\" t GROUP BY 1",
                    rs -> new String[] {rs.getString(1), rs.getLong(2) + " rows md5 " + rs.getString(3)})) {
                out.put(table + " tenant=" + row[0], row[1]);
            }
        }
        return out;
    }

    /** A snapshot taken twice in a row with the same result (the drain and the periodic jobs are quiet). */
    private Map<String, String> stableSnapshot() throws InterruptedException {
        Map<String, String> last = snapshot();
        for (int i = 0; i < 30; i++) {
            Thread.sleep(500);
            Map<String, String> now = snapshot();
            if (now.equals(last)) {
                return now;
            }
            last = now;
        }
        throw new AssertionError("the database did not settle: " + last);
    }

    private void compareSnapshots(Map<String, String> before, Map<String, String> after) {
        Set<String> bKeys = new LinkedHashSet<>();
        bKeys.add(B.toString());
        for (String sub : List.of(bAdminSub, bOperatorSub)) {
            bKeys.add(jdbc.queryOne("SELECT svc_name_uuid(?)::text", rs -> rs.getString(1), "personal:" + B + ":" + sub)
                    .orElseThrow());
            bKeys.add(jdbc.queryOne("SELECT svc_name_uuid(?)::text", rs -> rs.getString(1), "user:" + sub).orElseThrow());
        }
        for (var e : before.entrySet()) {
            String now = after.get(e.getKey());
            if (!e.getValue().equals(now)) {
                String rows = e.getKey().endsWith("tenant=null") ? "" : "\n    " + diffRows(e.getKey());
                findings.add("A's DATA CHANGED in " + e.getKey() + ": " + e.getValue() + " -> " + now + rows);
            }
        }
        for (var e : after.entrySet()) {
            if (!before.containsKey(e.getKey())) {
                String tenant = e.getKey().substring(e.getKey().indexOf("tenant=") + 7);
                if (!bKeys.contains(tenant)) {
                    findings.add("ROWS OUTSIDE B's NAMESPACE appeared: " + e.getKey() + " " + e.getValue());
                }
            }
        }
    }

    private final Map<String, List<String>> rowsBefore = new HashMap<>();

    private String diffRows(String key) {
        String table = key.substring(0, key.indexOf(' '));
        List<String> now = rows(table, key.substring(key.indexOf("tenant=") + 7));
        List<String> was = rowsBefore.getOrDefault(key, List.of());
        List<String> added = new ArrayList<>(now);
        added.removeAll(was);
        List<String> removed = new ArrayList<>(was);
        removed.removeAll(now);
        return "removed: " + cut(removed.toString(), 800) + "\n    added:   " + cut(added.toString(), 800);
    }

    private List<String> rows(String table, String tenant) {
        return jdbc.query("SELECT t::text FROM \"" + table + "\" t WHERE tenant_id::text = ? ORDER BY 1",
                rs -> rs.getString(1), tenant);
    }

    private void rememberRows(Map<String, String> snapshot) {
        for (String key : snapshot.keySet()) {
            if (!key.endsWith("tenant=null")) {
                rowsBefore.put(key, rows(key.substring(0, key.indexOf(' ')), key.substring(key.indexOf("tenant=") + 7)));
            }
        }
    }

    /** B's own rows name only B's secrets. */
    private void checkBRowsStayInBScope() {
        for (String ref : jdbc.query("SELECT name || ' ' || secret_ref FROM targets_targets WHERE tenant_id = ?",
                rs -> rs.getString(1), B)) {
            if (!ref.contains(" tenants/" + B + "/")) {
                findings.add("B's TARGET NAMES A FOREIGN SECRET: " + ref);
            }
        }
        for (String ref : jdbc.query("SELECT key || ' ' || coalesce(backend_ref->>'secret_ref', '') FROM docs_collections "
                + "WHERE tenant_id = ?", rs -> rs.getString(1), B)) {
            if (ref.contains(A.toString())) {
                findings.add("B's DOC COLLECTION NAMES A's SECRET: " + ref);
            }
        }
    }

    /** A's objects as A sees them through the API. */
    private Map<String, JsonNode> aViews() throws IOException {
        Map<String, JsonNode> out = new LinkedHashMap<>();
        // each read as the role its key names
        List<String> gets = List.of(
                "admin /api/v1/targets/${target}",
                "admin /api/v1/targets",
                "admin /api/v1/connectors?status=all",
                "admin /api/v1/connectors/mtx-1.x",
                "admin /api/v1/connectors/mtx-1.x/groups",
                "admin /api/v1/connectors/${connector}",
                "admin /api/v1/connectors/ingest-jobs/${specJob}",
                "admin /api/v1/kb/ingest-jobs/${kbJob}",
                "admin /api/v1/kb",
                "admin /api/v1/kb/${kbSlug}",
                "admin /api/v1/kb/${kbIngestedSlug}",
                "operator /api/v1/memory?include_expired=true",
                "admin /api/v1/memory/tenant/${memTenant}",
                "operator /api/v1/memory/user-tenant/${memUserTenant}",
                "operator /api/v1/memory/user/${memUser}",
                "operator /api/v1/memory/target/${memTarget}?target_name=${target}",
                "admin /api/v1/docs/collections",
                "admin /api/v1/agent-principals?include_revoked=true",
                "admin /api/v1/agent-grants?include_revoked=true&include_expired=true",
                "admin /api/v1/agent-grants/${grant}",
                "admin /api/v1/service-principals/grants?include_revoked=true&include_expired=true",
                "admin /api/v1/service-principals/grants/${serviceGrant}",
                "admin /api/v1/approvals/${approval}",
                "admin /api/v1/approvals?status=pending",
                "operator /api/v1/operations/runs/${runHandle}",
                "admin /api/v1/audit/${audit}",
                "admin /api/v1/agents/${agentDef}",
                "admin /api/v1/agents",
                "operator /api/v1/agent-runs/${agentRun}",
                "admin /api/v1/scheduler/triggers/${trigger}",
                "admin /api/v1/scheduler/triggers",
                "admin /api/v1/sensors/${sensor}",
                "admin /api/v1/sensors",
                "operator /api/v1/sensors/${sensor}/results",
                "admin /api/v1/dashboards/${dashboard}",
                "admin /api/v1/dashboards",
                "admin /api/v1/conventions/${conventionSlug}",
                "admin /api/v1/conventions/${conventionSlug}/history",
                "admin /api/v1/conventions/${conventionOps}",
                "admin /api/v1/conventions",
                "operator /api/v1/agent-runs/${agentRun}/events",
                "admin /api/v1/event-sources/${eventSlug}",
                "admin /api/v1/event-sources",
                "admin /api/v1/events/${event}",
                "admin /api/v1/tenants/current/flight-recorder-policy",
                "admin /api/v1/tenants/current/mail-recipient-policy",
                "admin /api/v1/tenants/current/approval-notifications",
                "admin /api/v1/tenants/current",
                "operator /api/v1/automation",
                "operator /api/v1/topology/edges",
                "operator /api/v1/topology/dependencies?node=${topoNode}",
                "operator /api/v1/topology/history?node=${topoNode}&include_edges=true");
        for (String g : gets) {
            String path = expand(g.substring(g.indexOf(' ') + 1), aFull);
            var r = kernel.get(path, g.startsWith("operator ") ? aOperator : aAdmin);
            // nothing is stripped: A's objects must read back exactly as they were
            out.put(g, r.status() == 200 ? r.json() : JSON.getNodeFactory().textNode(r.status() + " " + r.body()));
        }
        var page = kernel.send("POST", "/api/v1/operations/result-query", aOperator, "{\"handle_id\": \""
                + aVals.get("resultHandle") + "\", \"offset\": 100}", Map.of());
        out.put("operator result-query", page.status() == 200 ? page.json() : JSON.getNodeFactory().textNode(page.body()));
        return out;
    }

    private void assertACanStillWork() {
        var ok = kernel.send("POST", "/api/v1/operations/call", aOperator, "{\"connector_id\": \"mtx-1.x\", \"op_id\": "
                + "\"mtx.item0.list\", \"target\": \"" + aVals.get("target") + "\", \"params\": {\"count\": 2}}", Map.of());
        if (ok.status() != 200 || !ok.json().path("status").asText().equals("ok")) {
            findings.add("A's CALL NO LONGER WORKS after B's pass (credential or review changed?): " + cut(ok.body(), 600));
        }
        var docs = kernel.send("POST", "/api/v1/docs/search", aOperator, "{\"query\": \"" + DOCS_WORDS
                + "\", \"collection\": \"" + aVals.get("docKey") + "\"}", Map.of());
        if (docs.status() != 200 || !docs.body().contains("passage-" + R)) {
            findings.add("A's DOC SEARCH NO LONGER WORKS after B's pass: " + docs.status() + " " + cut(docs.body(), 600));
        }
        String agent = issuer.token(c -> c.subject(aVals.get("agentSub")).claim("azp", aVals.get("agentName"))
                .claim("tenant_id", A.toString()).claim("tenant_role", "operator"));
        var who = kernel.get("/api/v1/whoami", agent);
        if (who.status() != 200 || !who.json().path("principal_kind").asText().equals("agent")) {
            findings.add("A's AGENT PRINCIPAL NO LONGER WORKS after B revoked its own look-alike: " + who.status() + " "
                    + cut(who.body(), 400));
        }
        String second = issuer.token("admin2-" + R, A, "tenant_admin");
        var approved = kernel.send("POST", "/api/v1/approvals/" + aVals.get("approval") + "/approve", second,
                "{\"reason\": \"still pending after B's pass\"}", Map.of());
        if (approved.status() != 200) {
            findings.add("A's APPROVAL NO LONGER PENDING after B's pass: " + approved.status() + " " + cut(approved.body(), 600));
        }
    }

    /** The detectors detect: A's own answers are leaks to B, and A's own writes change A's snapshot. */
    private void positiveControls(Map<String, String> afterB) throws InterruptedException {
        for (String path : List.of("/api/v1/targets", "/api/v1/kb", "/api/v1/memory", "/api/v1/event-sources", "/api/v1/agents", "/api/v1/agent-runs", "/api/v1/scheduler/triggers",
                "/api/v1/conventions", "/api/v1/topology/edges", "/api/v1/sensors", "/api/v1/dashboards",
                "/api/v1/agent-grants", "/api/v1/approvals", "/api/v1/audit", "/api/v1/catalog/operations",
                "/api/v1/connectors?status=all", "/api/v1/docs/collections", "/api/v1/events",
                "/api/v1/automation", "/api/v1/tenants/current/mail-recipient-policy",
                "/api/v1/tenants/current/approval-notifications", "/api/v1/tenants/current",
                "/api/v1/retrieve?query=" + MEMORY_WORDS.replace(" ", "%20") + "&limit=50",
                "/api/v1/audit/sessions/" + aVals.get("session"))) {
            String answer = kernel.get(path, aAdmin).body();
            assertThat(leaked(answer, "GET " + path, false)).as("the leak check sees A's own answer to " + path).isNotEmpty();
        }
        // the generic words B searched with do find A's entries — for A
        for (String[] post : new String[][] {{"/api/v1/kb/search", "{\"query\": \"" + KB_WORDS + "\", \"limit\": 50}"},
                {"/api/v1/docs/search", "{\"query\": \"" + DOCS_WORDS + "\", \"collection\": \"all\"}"},
                {"/api/v1/docs/ask", "{\"query\": \"" + DOCS_WORDS + "\", \"collection\": \"all\"}"}}) {
            String answer = kernel.send("POST", post[0], aOperator, post[1], Map.of()).body();
            assertThat(leaked(answer, post[1], false)).as("A finds its own entries with " + post[1]).isNotEmpty();
        }
        String aMcp = issuer.mcpToken(aOperatorSub, A, "operator");
        for (String[] tool : new String[][] {{"search_knowledge", "{\"query\": \"" + KB_WORDS + "\", \"limit\": 50}"},
                {"search_memory", "{\"query\": \"" + MEMORY_WORDS + "\", \"limit\": 50}"},
                {"list_targets", "{}"}, {"list_operation_groups", "{\"connector_id\": \"mtx-1.x\"}"}}) {
            String answer = mcpSend(aMcp, "tools/call", "\"name\": \"" + tool[0] + "\", \"arguments\": " + tool[1], tool[0],
                    Map.of()).body();
            assertThat(leaked(answer, tool[1], false)).as("A's own MCP " + tool[0] + " shows A's data").isNotEmpty();
        }
        Map<String, String> now = stableSnapshot();
        assertThat(now.get("governance_approvals tenant=" + A)).as("A's approval, approved since, changed the snapshot")
                .isNotEqualTo(afterB.get("governance_approvals tenant=" + A));
    }

    // ------------------------------------------------------------------------------------------------
    // tenant A's objects
    // ------------------------------------------------------------------------------------------------

    private void setUpTenantA() throws Exception {
        aVals.put("R", R);
        aVals.put("tenantA", A.toString());
        aVals.put("aAdminSub", aAdminSub);
        aVals.put("aOperatorSub", aOperatorSub);
        aVals.put("password", PASSWORD);

        // a target with an alias, notes and a staged secret; probed so it has a fingerprint
        String name = "tgt-" + R;
        String alias = "alias-" + R;
        var t = send("POST", "/api/v1/targets", aAdmin, "{\"name\": \"" + name + "\", \"aliases\": [\"" + alias + "\"], "
                + "\"product\": \"mtx\", \"host\": \"127.0.0.1\", \"port\": " + target.getAddress().getPort()
                + ", \"notes\": \"notes-" + R + "\", \"extras\": {\"scheme\": \"http\"}}", 201);
        aVals.put("target", name);
        aVals.put("alias", alias);
        aVals.put("targetId", t.path("id").asText());
        aVals.put("secretRef", t.path("secret_ref").asText());
        send("PUT", "/api/v1/targets/" + name + "/secret", aAdmin, "{\"fields\": {\"username\": \"svc\", \"password\": \""
                + PASSWORD + "\", \"token\": \"tok-" + R + "\"}}", 200);

        // the plugin connector: enabled, one group renamed, one operation described, a caution op needing approval
        send("POST", "/api/v1/connectors/mtx-1.x/enable-reads", aAdmin, null, 200);
        send("POST", "/api/v1/connectors/mtx-1.x/enable", aAdmin, null, 200);
        send("PATCH", "/api/v1/connectors/mtx-1.x/operations/mtx.item5.delete", aAdmin,
                "{\"is_enabled\": true, \"safety_level\": \"caution\"}", 200);
        send("PATCH", "/api/v1/connectors/mtx-1.x/operations/mtx.item1.get", aAdmin,
                "{\"custom_description\": \"desc-" + R + " shows one item\"}", 200);
        send("PATCH", "/api/v1/connectors/mtx-1.x/groups/items", aAdmin,
                "{\"name\": \"Items " + R + "\", \"when_to_use\": \"when-" + R + "\"}", 200);
        send("POST", "/api/v1/targets/" + name + "/probe", aAdmin, null, 200);
        send("PUT", "/api/v1/connector-preferences/mtx", aAdmin, "{\"impl_id\": \"mtx\"}", 200);

        // dispatch: an audited call, a reduced result, an async run, a parked call
        aVals.put("workRef", "CHG-" + R);
        JsonNode small = send("POST", "/api/v1/operations/call", aOperator, "{\"connector_id\": \"mtx-1.x\", \"op_id\": "
                + "\"mtx.item0.list\", \"target\": \"" + name + "\", \"params\": {\"count\": 3}, \"work_ref\": \"CHG-" + R
                + "\"}", 200);
        assertThat(small.path("status").asText()).as(small.toString()).isEqualTo("ok");
        aVals.put("audit", small.path("extras").path("audit_id").asText());
        JsonNode big = send("POST", "/api/v1/operations/call", aOperator, "{\"connector_id\": \"mtx-1.x\", \"op_id\": "
                + "\"mtx.item0.list\", \"target\": \"" + name + "\", \"params\": {\"count\": 120}}", 200);
        aVals.put("resultHandle", big.path("extras").path("fetch_more").path("drill_in").path("handle_id").asText());
        JsonNode async = send("POST", "/api/v1/operations/call", aOperator, "{\"connector_id\": \"mtx-1.x\", \"op_id\": "
                + "\"mtx.item0.list\", \"target\": \"" + name + "\", \"params\": {\"count\": 4}, \"async\": true}", 202);
        aVals.put("runHandle", async.path("handle").asText());
        for (int i = 0; i < 100 && kernel.get("/api/v1/operations/runs/" + aVals.get("runHandle"), aOperator).json()
                .path("status").asText().equals("running"); i++) {
            Thread.sleep(100);
        }
        aVals.put("parkedName", "parked-" + R);
        JsonNode parked = send("POST", "/api/v1/operations/call", aOperator, "{\"connector_id\": \"mtx-1.x\", \"op_id\": "
                + "\"mtx.item5.delete\", \"target\": \"" + name + "\", \"params\": {\"name\": \"parked-" + R + "\"}, "
                + "\"work_ref\": \"CHG-" + R + "\"}", 200);
        assertThat(parked.path("status").asText()).as(parked.toString()).isEqualTo("awaiting_approval");
        aVals.put("approval", parked.path("extras").path("approval_request_id").asText());

        // a tenant-scoped ingested connector, and a background ingest job
        String impl = "ac" + R;
        var m = new LinkedHashMap<String, Object>(Map.of("product", impl, "version", "1.x", "impl", impl, "tenant_id",
                A.toString(), "specs", List.of(Map.of("name", "a.json", "content", SpecIngestIT.spec("Spec " + R, "1.0", 2)))));
        JsonNode ingested = send("POST", "/api/v1/connectors/ingest", aAdmin, JSON.writeValueAsString(m), 200);
        aVals.put("connector", ingested.path("connector_id").asText());
        aVals.put("connectorImpl", impl);
        JsonNode review = send("GET", "/api/v1/connectors/" + aVals.get("connector"), aAdmin, null, 200);
        aVals.put("ingestedOp", review.path("operations").get(0).path("op_id").asText());
        JsonNode groups = send("GET", "/api/v1/connectors/" + aVals.get("connector") + "/groups", aAdmin, null, 200);
        consts.put("ingestedGroup", (groups.isArray() ? groups : groups.path("groups")).get(0).path("group_key").asText());
        send("PATCH", "/api/v1/connectors/" + aVals.get("connector") + "/operations/" + aVals.get("ingestedOp"), aAdmin,
                "{\"custom_description\": \"idesc-" + R + "\"}", 200);
        String bigImpl = "bc" + R;
        var bm = new LinkedHashMap<String, Object>(Map.of("product", bigImpl, "version", "3.x", "impl", bigImpl, "tenant_id",
                A.toString(), "specs", List.of(Map.of("name", "big.json", "content", SpecIngestIT.spec("Big " + R, "3.1", 40)))));
        JsonNode job = send("POST", "/api/v1/connectors/ingest", aAdmin, JSON.writeValueAsString(bm), 202);
        aVals.put("specJob", job.path("job_id").asText());
        aVals.put("bigConnector", bigImpl + "-3.x");
        awaitJob("/api/v1/connectors/ingest-jobs/" + aVals.get("specJob"));

        // kb: an entry, and an ingest job over a directory that is then removed
        aVals.put("kbSlug", "kb-" + R);
        aVals.put("kbKind", "kind-" + R);
        send("POST", "/api/v1/kb", aAdmin, "{\"slug\": \"kb-" + R + "\", \"body\": \"Runbook " + R + ": payments failover — "
                + "promote the standby replica, then repoint the service.\", \"metadata\": {\"kind\": \"kind-" + R + "\"}}", 201);
        Path dir = Files.createDirectories(kbRoot.resolve(A.toString()).resolve("kbdir-" + R)); // A's own folder
        Files.writeString(dir.resolve("guide" + R + ".md"), "# Guide " + R + "\nPayments failover: promote the standby "
                + "replica. Ingested " + R + ".");
        JsonNode kbJob = send("POST", "/api/v1/kb/ingest", aAdmin, "{\"directory\": \"kbdir-" + R + "\"}", 202);
        aVals.put("kbJob", kbJob.path("job_id").asText());
        aVals.put("kbDir", "kbdir-" + R);
        awaitJob("/api/v1/kb/ingest-jobs/" + aVals.get("kbJob"));
        JsonNode kbList = send("GET", "/api/v1/kb", aAdmin, null, 200);
        String ingestedSlug = kbList.findValuesAsText("slug").stream().filter(s -> s.startsWith("guide")).findFirst()
                .orElseThrow(() -> new AssertionError("no ingested kb entry in " + kbList));
        aVals.put("kbIngestedSlug", ingestedSlug);
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(f);
            }
        }

        // memory in every scope
        aVals.put("memTenant", "memt-" + R);
        aVals.put("memUserTenant", "memut-" + R);
        aVals.put("memTarget", "memtg-" + R);
        aVals.put("memUserTarget", "memutg-" + R);
        aVals.put("memUser", "memu-" + R);
        send("POST", "/api/v1/memory", aAdmin, "{\"body\": \"Change freeze " + R + ": no payments deploys friday "
                + "afternoon\", \"scope\": \"tenant\", \"slug\": \"memt-" + R + "\"}", 201);
        send("POST", "/api/v1/memory", aOperator, "{\"body\": \"Personal " + R + ": change freeze friday afternoon, "
                + "prefer yaml\", \"scope\": \"user-tenant\", \"slug\": \"memut-" + R + "\"}", 201);
        send("POST", "/api/v1/memory", aOperator, "{\"body\": \"Target note " + R + ": payments change freeze friday\", "
                + "\"scope\": \"target\", \"target_name\": \"" + name + "\", \"slug\": \"memtg-" + R + "\"}", 201);
        send("POST", "/api/v1/memory", aOperator, "{\"body\": \"My target note " + R + ": change freeze friday\", "
                + "\"scope\": \"user-target\", \"target_name\": \"" + name + "\", \"slug\": \"memutg-" + R + "\"}", 201);
        send("POST", "/api/v1/memory", aOperator, "{\"body\": \"User note " + R + ": on call friday afternoon\", "
                + "\"scope\": \"user\", \"slug\": \"memu-" + R + "\", \"expires_at\": null}", 201);

        // docs: a collection of A's, and a global one granted to A only
        String docUrl = "http://127.0.0.1:" + corpus.getAddress().getPort() + "/docs-" + R + "/search";
        aVals.put("docKey", "dcol-" + R);
        aVals.put("docUrl", docUrl);
        aVals.put("docSecretRef", "tenants/" + A + "/dsec-" + R);
        send("POST", "/api/v1/docs/collections", aAdmin, "{\"key\": \"dcol-" + R + "\", \"backend_type\": \"corpus-http\", "
                + "\"backend_ref\": {\"url\": \"" + docUrl + "\"}, \"description\": \"docdesc-" + R + "\", \"vendor\": \"vendor-"
                + R + "\", \"product\": [\"prod-" + R + "\"]}", 201);
        aVals.put("globalDocKey", "gcol-" + R);
        send("POST", "/api/v1/docs/collections", platform, "{\"key\": \"gcol-" + R + "\", \"global\": true, \"backend_type\": "
                + "\"corpus-http\", \"backend_ref\": {\"url\": \"http://127.0.0.1:" + corpus.getAddress().getPort()
                + "/gdocs-" + R + "/search\"}, \"description\": \"gdesc-" + R + "\"}", 201);
        send("POST", "/api/v1/docs/collections/gcol-" + R + "/grants/" + A, platform, null, 200);
        JsonNode found = send("POST", "/api/v1/docs/search", aOperator, "{\"query\": \"" + DOCS_WORDS + "\", \"collection\": "
                + "[\"dcol-" + R + "\", \"gcol-" + R + "\"]}", 200);
        assertThat(found.toString()).contains("passage-" + R);

        // governance: an agent principal, an agent grant, a service grant
        aVals.put("agentName", "bot-" + R);
        aVals.put("agentSub", "botsub-" + R);
        aVals.put("serviceSub", "svcsub-" + R);
        send("POST", "/api/v1/agent-principals", aAdmin, "{\"name\": \"bot-" + R + "\"}", 201);
        aVals.put("grant", send("POST", "/api/v1/agent-grants", aAdmin, "{\"principal\": \"botsub-" + R + "\", \"op\": "
                + "\"mtx.item0.*\", \"verdict\": \"deny\", \"target\": \"" + aVals.get("targetId") + "\"}", 201)
                .path("id").asText());
        aVals.put("serviceGrant", send("POST", "/api/v1/service-principals/grants", aAdmin, "{\"principal\": \"svcsub-" + R
                + "\", \"connector_id\": \"mtx-1.x\", \"op_id\": \"mtx.item0.list\", \"reason\": \"reason-" + R + "\", "
                + "\"target_name_pattern\": \"tgt-*\"}", 201).path("id").asText());

        // agents: a definition acting as A's principal
        aVals.put("agentDef", "agdef-" + R.toLowerCase(java.util.Locale.ROOT));
        send("POST", "/api/v1/agents", aAdmin, "{\"name\": \"" + aVals.get("agentDef") + "\", \"identity_ref\": \"bot-"
                + R + "\", \"system_prompt\": \"prompt-" + R + "\"}", 201);

        // a finished run of that agent, made through the kernel: the model lists A's targets, then answers
        model.then(ScriptedModel.toolCall("list_targets", Map.of()), ScriptedModel.text("run-output-" + R));
        JsonNode run = send("POST", "/api/v1/agents/" + aVals.get("agentDef") + "/runs", aOperator, "{\"input\": "
                + "\"look after the targets\", \"work_ref\": \"runwr-" + R + "\"}", 200);
        assertThat(run.path("status").asText()).as(run.toString()).isEqualTo("succeeded");
        assertThat(run.toString()).as("the run's output is A's").contains("run-output-" + R);
        aVals.put("agentRun", run.path("handle").asText());
        JsonNode runEvents = send("GET", "/api/v1/agent-runs/" + aVals.get("agentRun") + "/events", aOperator, null, 200);
        assertThat(runEvents.path("events").findValuesAsText("kind")).as(runEvents.toString())
                .contains("tool_call", "tool_result", "final_output");
        assertThat(ScriptedModel.transcript(model.requests().getLast())).as("the tool result went back to the model")
                .contains(aVals.get("target"));
        // the run is an audit session: its rows carry its handle, so the session routes and filters have one of A's
        List<String> sessionRows = jdbc.query("SELECT op_id FROM audit_rows WHERE tenant_id = ? AND session_id = ?::uuid",
                rs -> rs.getString(1), A, aVals.get("agentRun"));
        assertThat(sessionRows).as("audit rows of A's agent run").contains("svc.agent_runs.run");
        aVals.put("session", aVals.get("agentRun"));
        // from here on a run (should B ever start one of A's agents) ends at once instead of waiting for a script
        model.otherwise(ScriptedModel.text("unscripted"));
        aVals.put("trigger", send("POST", "/api/v1/scheduler/triggers", aAdmin, "{\"kind\": \"event\", \"agent_definition\": "
                + "\"" + aVals.get("agentDef") + "\", \"event_filter\": {\"marker\": \"trigger-" + R + "\"}, "
                + "\"inputs\": \"inputs-" + R + "\"}", 201).path("id").asText());

        // sensors and dashboards: a paused sensor (so nothing of A changes while B probes) on a dashboard of A
        aVals.put("sensor", send("POST", "/api/v1/sensors", aAdmin, "{\"name\": \"sensor-" + R + "\", \"connector_id\": "
                + "\"mtx-1.x\", \"op_id\": \"mtx.item1.get\", \"target\": \"" + aVals.get("target") + "\", \"params\": "
                + "{\"name\": \"item-" + R + "\"}, \"interval_seconds\": 60, \"status\": \"paused\", \"assertion\": "
                + "{\"rules\": [{\"name\": \"rule-" + R + "\", \"state\": \"critical\", \"when\": {\"path\": \"/body\", "
                + "\"contains\": \"down\"}}]}}", 201).path("id").asText());
        aVals.put("dashboardName", "dash-" + R);
        aVals.put("dashboard", send("POST", "/api/v1/dashboards", aAdmin, "{\"name\": \"dash-" + R + "\", "
                + "\"description\": \"desc-" + R + "\", \"investigator_prompt\": \"inv-" + R + "\", \"notify_email\": "
                + "\"oncall-" + R + "@example.com\", \"notify_min_state\": \"degraded\", \"sensor_ids\": [\""
                + aVals.get("sensor") + "\"]}", 201).path("id").asText());

        // runbooks: a published template of A and a run of it
        aVals.put("runbook", "rbk-" + R);
        send("POST", "/api/v1/runbooks/templates", aAdmin, "{\"slug\": \"rbk-" + R + "\", \"yaml\": \"title: runbook-"
                + R + "\\nsteps:\\n  - instruction: step-" + R + "\\n    verify: done?\\n\"}", 201);
        send("POST", "/api/v1/runbooks/templates/rbk-" + R + "/publish", aAdmin, null, 200);
        aVals.put("runbookRun", send("POST", "/api/v1/runbooks/runs", aAdmin, "{\"slug\": \"rbk-" + R + "\", "
                + "\"work_ref\": \"rbwr-" + R + "\"}", 201).path("id").asText());

        // conventions: a workflow one (searched) and an operational one (in A's agents' instructions)
        aVals.put("conventionSlug", "conv-" + R.toLowerCase(java.util.Locale.ROOT));
        aVals.put("conventionOps", "convops-" + R.toLowerCase(java.util.Locale.ROOT));
        send("POST", "/api/v1/conventions", aAdmin, "{\"slug\": \"" + aVals.get("conventionSlug") + "\", \"title\": "
                + "\"conv-title-" + R + "\", \"kind\": \"workflow\", \"body\": \"Convention " + R + ": payments failover, "
                + "promote the standby replica.\"}", 201);
        send("POST", "/api/v1/conventions", aAdmin, "{\"slug\": \"" + aVals.get("conventionOps") + "\", \"title\": "
                + "\"ops-title-" + R + "\", \"kind\": \"operational\", \"priority\": 5, \"body\": \"Rule " + R + ".\"}", 201);
        send("PATCH", "/api/v1/conventions/" + aVals.get("conventionSlug"), aAdmin, "{\"body\": \"Convention " + R
                + ": payments failover, promote the standby replica, then repoint.\"}", 200);

        // topology: a curated edge from a node of A's to A's target, and one from A's bulk import
        aVals.put("topoNode", "topo-node-" + R);
        aVals.put("topoEdge", send("POST", "/api/v1/topology/edges", aAdmin, "{\"from\": \"topo-node-" + R + "\", "
                + "\"from_kind\": \"service\", \"kind\": \"depends-on\", \"to\": \"" + aVals.get("alias") + "\", "
                + "\"note\": \"topo-note-" + R + "\", \"evidence_url\": \"https://wiki.example.com/" + R + "\"}", 201)
                .path("edge").path("edge_id").asText());
        send("POST", "/api/v1/topology/edges/bulk", aAdmin, "{\"edges\": [{\"from\": \"topo-node-" + R + "\", "
                + "\"kind\": \"runs-on\", \"to\": \"topo-host-" + R + "\", \"to_kind\": \"host\"}]}", 200);

        // broadcast: an override and an announcement of A
        aVals.put("overridePattern", "ovr-" + R + "-*");
        aVals.put("override", send("POST", "/api/v1/broadcast/overrides", aAdmin, "{\"op_id_pattern\": \"ovr-" + R
                + "-*\", \"detail\": \"aggregate\", \"scope_field\": \"target_name\", \"scope_value\": \""
                + aVals.get("target") + "\"}", 200).path("id").asText());
        send("POST", "/api/v1/broadcast/announcements", aAdmin, "{\"activity\": \"announce-" + R + "\", \"target\": \""
                + aVals.get("target") + "\", \"work_ref\": \"wr-" + R + "\"}", 201);

        // events: a source and one accepted event
        aVals.put("eventSourceName", "esname-" + R);
        aVals.put("eventSecret", EVENT_SECRET);
        JsonNode source = send("POST", "/api/v1/event-sources", aAdmin, "{\"name\": \"esname-" + R + "\", \"kind\": "
                + "\"generic-json\", \"auth_strategy\": \"static-header\", \"secret\": \"" + EVENT_SECRET + "\"}", 201);
        aVals.put("eventSlug", source.path("slug").asText());
        HttpResponse<String> ev = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(kernel.url()
                        + "/api/v1/events/ingest/" + aVals.get("eventSlug"))).header("Content-Type", "application/json")
                .header("X-Svc-Token", EVENT_SECRET).POST(HttpRequest.BodyPublishers.ofString("{\"status\": \"firing\", "
                        + "\"marker\": \"event-" + R + "\"}")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(ev.statusCode()).as(ev.body()).isEqualTo(200);
        aVals.put("event", JSON.readTree(ev.body()).path("event_id").asText());

        // policies and retrieval baselines of A
        send("PATCH", "/api/v1/tenants/current/flight-recorder-policy", aAdmin, "{\"enabled\": true, \"retention_days\": 17}",
                200);
        send("PUT", "/api/v1/tenants/current/mail-recipient-policy", aAdmin, "{\"allowlist\": \"oncall-" + R
                + "@example.com, " + R + ".example.com\"}", 200);
        send("PUT", "/api/v1/tenants/current/display-name", aAdmin, "{\"display_name\": \"tenant-" + R + "\"}", 200);
        send("PUT", "/api/v1/tenants/current/approval-notifications", aAdmin, "{\"mail_recipients\": \"approvers-" + R
                + "@example.com\"}", 200);
        send("POST", "/api/v1/retrieval/eval", aAdmin, "{\"save_baseline\": true}", 200);

        for (var e : aVals.entrySet()) {
            assertThat(e.getValue()).as(e.getKey()).isNotBlank();
            assertThat(e.getValue().contains(R) || UUIDISH.matcher(e.getValue()).find() || e.getKey().equals("eventSlug"))
                    .as("every value of A is distinctive: " + e.getKey() + "=" + e.getValue()).isTrue();
        }
    }

    private void awaitJob(String path) throws InterruptedException {
        JsonNode job = null;
        for (int i = 0; i < 300; i++) {
            job = kernel.get(path, aAdmin).json();
            if (job.path("terminal").asBoolean() || Set.of("succeeded", "failed").contains(job.path("status").asText())) {
                break;
            }
            Thread.sleep(200);
        }
        assertThat(job.path("status").asText()).as(String.valueOf(job)).isEqualTo("succeeded");
    }

    private void buildDecoysAndConstants() throws IOException {
        String r2 = marker();
        Map<String, String> swap = new LinkedHashMap<>();
        for (var e : aVals.entrySet()) {
            Matcher m = UUIDISH.matcher(e.getValue());
            while (m.find()) {
                swap.putIfAbsent(m.group(), UUID.randomUUID().toString());
            }
        }
        swap.put(aVals.get("eventSlug"), "es-" + base32(26));
        swap.put(R, r2);
        for (var e : aVals.entrySet()) {
            String d = e.getValue();
            for (var s : swap.entrySet()) {
                d = d.replace(s.getKey(), s.getValue());
            }
            decoys.put(e.getKey(), d);
        }
        consts.put("tenantB", B.toString());
        consts.put("port", String.valueOf(target.getAddress().getPort()));
        consts.put("bSpec", bSpecJson());
        consts.put("soon", Instant.now().plus(Duration.ofHours(1)).toString());
        consts.put("bSecret", "b-secret-0123456789abcdefghij");
        consts.put("bCorpusUrl", "http://127.0.0.1:" + corpus.getAddress().getPort() + "/bdocs/search");
        decoys.putAll(consts);
        aFull.putAll(aVals);
        aFull.putAll(consts);
    }

    private final Map<String, String> aFull = new LinkedHashMap<>();

    private static String expand(String template, Map<String, String> all) {
        Matcher m = Pattern.compile("\\$\\{([A-Za-z]+)}").matcher(template);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String v = all.get(m.group(1));
            if (v == null) {
                throw new IllegalStateException("no value for ${" + m.group(1) + "} in " + template);
            }
            m.appendReplacement(out, Matcher.quoteReplacement(v));
        }
        m.appendTail(out);
        return out.toString();
    }

    /** The answer with request ids dropped and A's (or the decoy's) values replaced by their names. */
    private static String normalize(String body, Map<String, String> vals) {
        String out = body.replaceAll("\"request_id\"\\s*:\\s*\"[^\"]*\"", "");
        List<Map.Entry<String, String>> byLength = vals.entrySet().stream()
                .sorted(Comparator.comparingInt((Map.Entry<String, String> e) -> e.getValue().length()).reversed()).toList();
        for (var e : byLength) {
            if (e.getValue().length() > 3) {
                out = out.replace(e.getValue(), "<" + e.getKey() + ">");
            }
        }
        return out;
    }

    /**
     * Refusals whose body may differ between A's object and a made-up one of the same shape, each with the reason it
     * reveals nothing of A. Keyed by the probe's route and label as {@link #sameBodyAsMadeUp} names it.
     */
    private static final Map<String, String> INTENTIONAL_DIFFERENCES = Map.of();

    /**
     * A refusal of A's object reads exactly as the refusal of a made-up object of the same shape — message and extras
     * too, not only the status and the error code: both bodies with their values replaced by their names (A's by
     * A's, the decoy's by the decoy's) and the request id dropped must be equal.
     */
    private void sameBodyAsMadeUp(String where, String key, String realBody, String madeUpBody) {
        String real = normalize(realBody, aFull);
        String madeUp = normalize(madeUpBody, decoys);
        if (!real.equals(madeUp) && !INTENTIONAL_DIFFERENCES.containsKey(key)) {
            findings.add("EXISTENCE ORACLE (the body differs from a made-up object's): " + where + "\n    key: " + key
                    + "\n    A's object: " + cut(real, 500) + "\n    made-up:    " + cut(madeUp, 500));
        }
        if (real.equals(madeUp)) {
            bodiesCompared++;
        }
    }

    // ------------------------------------------------------------------------------------------------
    // helpers
    // ------------------------------------------------------------------------------------------------

    private static JsonNode send(String method, String path, String token, String body, int expected) {
        TestKernel.Response r = kernel.send(method, path, token, body, Map.of());
        assertThat(r.status()).as(method + " " + path + ": " + r.body()).isEqualTo(expected);
        return r.json();
    }

    /** The top-level error code of an answer (or its envelope status), for comparing two answers. */
    private static String errorCode(String body) {
        try {
            JsonNode j = JSON.readTree(body);
            if (j != null && j.path("error").isTextual()) {
                return j.path("error").asText();
            }
            return j != null && j.path("status").isTextual() && !j.has("handle") ? "status=" + j.path("status").asText() : "";
        } catch (IOException e) {
            return "not-json";
        }
    }

    private static String marker() {
        StringBuilder b = new StringBuilder("zq");
        for (int i = 0; i < 8; i++) {
            b.append((char) ('a' + RANDOM.nextInt(26)));
        }
        return b.toString();
    }

    private static String base32(int n) {
        String alphabet = "abcdefghijklmnopqrstuvwxyz234567";
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) {
            b.append(alphabet.charAt(RANDOM.nextInt(alphabet.length())));
        }
        return b.toString();
    }

    private static String cut(String s, int n) {
        return s.length() <= n ? s : s.substring(0, n) + "…(" + s.length() + " chars)";
    }

    private static void answer(HttpExchange x, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        x.getResponseHeaders().set("Content-Type", "application/json");
        x.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = x.getResponseBody()) {
            out.write(bytes);
        }
    }
}
