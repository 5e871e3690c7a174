package dev.backplane.kernel.topology;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.backplane.kernel.testing.BeforeKernel;
import dev.backplane.kernel.testing.KernelSetup;
import dev.backplane.kernel.testing.PerTestTenant;
import dev.backplane.kernel.testing.TempDirs;
import dev.backplane.kernel.testing.TestKernel;
import dev.backplane.kernel.testing.TestPlugins;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The topology graph end to end against the real kernel and PostgreSQL: curated edges with conflicts,
 * the closed vocabulary and every bad input (nothing half-written), targets as nodes, diff and history
 * at past instants, the timeline's paging, traversals on the in-memory graph kept current by writes,
 * the path search's worst case on a dense mesh, bulk import with a dry run that writes nothing, roles,
 * and the CLI. Discovery against a real (mock) Kubernetes API is {@code K8sTopologyIT} in the k8s plugin.
 */
class TopologyIT extends PerTestTenant {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final String readOnly = issuer.token("ro-" + tenant, tenant, "read_only");

    @BeforeKernel
    static void start(KernelSetup setup) {
        setup.plugin(TestPlugins.connector("topo", "1.x").product("topo").ranges("*").operations(1));
    }

    private static Map<String, Object> edge(String from, String fromKind, String kind, String to, String toKind) {
        Map<String, Object> m = new HashMap<>();
        m.put("from", from);
        m.put("kind", kind);
        m.put("to", to);
        if (fromKind != null) {
            m.put("from_kind", fromKind);
        }
        if (toKind != null) {
            m.put("to_kind", toKind);
        }
        return m;
    }

    private TestKernel.Response annotate(String token, Map<String, Object> body) {
        return kernel.post("/api/v1/topology/edges", token, body);
    }

    private JsonNode ok(TestKernel.Response r) {
        assertThat(r.status()).as(r.body()).isBetween(200, 201);
        return r.json();
    }

    private void refused(TestKernel.Response r, int status, String code) {
        assertThat(r.status()).as(r.body()).isEqualTo(status);
        assertThat(r.json().path("error").asText()).as(r.body()).isEqualTo(code);
    }

    private static String q(String v) {
        return URLEncoder.encode(v, StandardCharsets.UTF_8);
    }

    private JsonNode get(String path) {
        return ok(kernel.get(path, operator));
    }

    private long rows(String table) {
        return kernel.jdbc().queryOne("SELECT count(*) FROM " + table + " WHERE tenant_id = ?", rs -> rs.getLong(1), tenant)
                .orElseThrow();
    }

    private static List<String> changes(JsonNode entries) {
        List<String> out = new ArrayList<>();
        entries.forEach(e -> out.add(e.path("change").asText()));
        return out;
    }

    /** Waits for the clock to move on, so an instant taken now lies strictly between two writes. */
    private static Instant tick() {
        Instant at = Instant.now();
        while (!Instant.now().isAfter(at.plusMillis(2))) {
            Thread.onSpinWait();
        }
        return Instant.now();
    }

    @Test
    void curatedEdgesConflictsAndTheVocabulary() {
        JsonNode created = ok(annotate(admin, edge("web-1", "pod", "runs-on", "node-a", "node")));
        assertThat(created.path("change").asText()).isEqualTo("created");
        assertThat(created.path("edge").path("source").asText()).isEqualTo("curated");
        assertThat(created.path("edge").path("conflict").asBoolean()).isFalse();
        assertThat(ok(annotate(admin, edge("web-1", null, "runs-on", "node-a", null))).path("change").asText())
                .as("names resolve to the existing nodes").isEqualTo("unchanged");
        Map<String, Object> noted = edge("web-1", null, "runs-on", "node-a", null);
        noted.put("note", "seen in the rack diagram");
        noted.put("evidence_url", "https://wiki.example.com/rack-7");
        JsonNode updated = ok(annotate(admin, noted));
        assertThat(updated.path("change").asText()).isEqualTo("updated");
        assertThat(updated.path("edge").path("note").asText()).isEqualTo("seen in the rack diagram");

        // a second end for a single-valued kind contradicts the first: both flagged, neither overwritten
        JsonNode second = ok(annotate(admin, edge("web-1", null, "runs-on", "node-b", "node")));
        assertThat(second.path("edge").path("conflict").asBoolean()).isTrue();
        JsonNode conflicts = get("/api/v1/topology/edges?conflicts=true");
        assertThat(conflicts.path("edges")).hasSize(2);
        assertThat(conflicts.path("edges").findValuesAsText("to")).containsExactlyInAnyOrder("node-a", "node-b");
        // a multi-valued kind never conflicts
        ok(annotate(admin, edge("web-1", null, "mounts", "vol-1", "volume")));
        ok(annotate(admin, edge("web-1", null, "mounts", "vol-2", "volume")));
        assertThat(get("/api/v1/topology/edges?conflicts=true").path("edges")).hasSize(2);

        JsonNode removed = ok(kernel.post("/api/v1/topology/edges/unannotate", admin, Map.of("from", "web-1", "kind",
                "runs-on", "to", "node-b")));
        assertThat(removed.path("removed").path("to").asText()).isEqualTo("node-b");
        assertThat(get("/api/v1/topology/edges?conflicts=true").path("edges")).isEmpty();
        JsonNode left = get("/api/v1/topology/edges?from=web-1&kind=runs-on");
        assertThat(left.path("edges")).hasSize(1);
        assertThat(left.path("edges").get(0).path("conflict").asBoolean()).isFalse();
        String id = left.path("edges").get(0).path("edge_id").asText();
        ok(kernel.post("/api/v1/topology/edges/unannotate", admin, Map.of("edge_id", id)));
        refused(kernel.post("/api/v1/topology/edges/unannotate", admin, Map.of("edge_id", id)), 404, "edge_not_found");
        refused(kernel.post("/api/v1/topology/edges/unannotate", admin, Map.of("from", "web-1", "kind", "runs-on",
                "to", "node-a")), 404, "edge_not_found");
        assertThat(get("/api/v1/topology/edges?from=web-1").path("edges").findValuesAsText("kind"))
                .containsOnly("mounts");
        assertThat(get("/api/v1/topology/edges?source=curated&kind=mounts&limit=1").path("more").asBoolean()).isTrue();
    }

    @Test
    void aWriterWhoseClockIsBehindTheLatestVersionStillWritesInOrder() {
        ok(annotate(admin, edge("skew-a", "service", "depends-on", "skew-b", "service")));
        // another replica whose clock runs an hour ahead wrote the current version
        kernel.jdbc().update("UPDATE topology_edges SET valid_from = valid_from + interval '1 hour' WHERE tenant_id = ?",
                tenant);
        Instant ahead = kernel.jdbc().queryOne("SELECT max(valid_from) FROM topology_edges WHERE tenant_id = ?",
                rs -> rs.getTimestamp(1).toInstant(), tenant).orElseThrow();
        Map<String, Object> noted = edge("skew-a", null, "depends-on", "skew-b", null);
        noted.put("note", "written by a replica whose clock is behind");
        assertThat(ok(annotate(admin, noted)).path("change").asText()).isEqualTo("updated");
        List<Instant[]> versions = kernel.jdbc().query("SELECT valid_from, valid_to FROM topology_edges WHERE tenant_id = ? "
                + "ORDER BY version_id", rs -> new Instant[] {rs.getTimestamp(1).toInstant(),
                rs.getTimestamp(2) == null ? null : rs.getTimestamp(2).toInstant()}, tenant);
        assertThat(versions).hasSize(2);
        assertThat(versions.get(0)[1]).as("closed no earlier than it began").isAfterOrEqualTo(ahead);
        assertThat(versions.get(1)[0]).as("the new version follows the old").isAfterOrEqualTo(ahead);
        assertThat(versions.get(1)[1]).isNull();
    }

    @Test
    void notesAreKeptUnlessClearedRangesAreOrderedAndOneEdgeImportsLikeMany() {
        Map<String, Object> noted = edge("keep-a", "service", "depends-on", "keep-b", "service");
        noted.put("note", "from the runbook");
        noted.put("evidence_url", "https://wiki.example.com/keep");
        ok(annotate(admin, noted));
        JsonNode again = ok(annotate(admin, edge("keep-a", null, "depends-on", "keep-b", null)));
        assertThat(again.path("change").asText()).as("no note given: nothing to change").isEqualTo("unchanged");
        assertThat(again.path("edge").path("note").asText()).isEqualTo("from the runbook");
        assertThat(again.path("edge").path("evidence_url").asText()).isEqualTo("https://wiki.example.com/keep");
        Map<String, Object> cleared = edge("keep-a", null, "depends-on", "keep-b", null);
        cleared.put("note", "");
        cleared.put("evidence_url", "");
        JsonNode emptied = ok(annotate(admin, cleared));
        assertThat(emptied.path("change").asText()).isEqualTo("updated");
        assertThat(emptied.path("edge").path("note").isNull() || emptied.path("edge").path("note").isMissingNode())
                .as(emptied.toString()).isTrue();

        refused(kernel.get("/api/v1/topology/diff?t1=2026-01-02T00:00:00Z&t2=2026-01-01T00:00:00Z", operator), 422,
                "invalid_time");
        refused(kernel.get("/api/v1/topology/history?node=keep-a&since=2026-01-02T00:00:00Z&until=2026-01-01T00:00:00Z",
                operator), 422, "invalid_time");
        refused(kernel.get("/api/v1/topology/timeline?since=2026-01-02T00:00:00Z&until=2026-01-01T00:00:00Z", operator),
                422, "invalid_time");

        long before = rows("topology_edges");
        TestKernel.Response one = kernel.post("/api/v1/topology/edges/bulk", operator, Map.of("edges",
                List.of(edge("keep-a", null, "depends-on", "keep-a", null))));
        refused(one, 422, "invalid_edge");
        assertThat(one.json().path("extras").path("problems").findValuesAsText("index")).containsExactly("0");
        TestKernel.Response unknown = kernel.post("/api/v1/topology/edges/bulk", operator, Map.of("edges",
                List.of(edge("nowhere", null, "depends-on", "keep-a", null))));
        refused(unknown, 422, "invalid_edge");
        assertThat(unknown.json().path("extras").path("problems").findValuesAsText("code"))
                .containsExactly("node_kind_required");
        assertThat(rows("topology_edges")).isEqualTo(before);
    }

    @Test
    void badInputIsRefusedAndWritesNothing() {
        ok(annotate(admin, edge("db", "host", "depends-on", "san", "datastore")));
        ok(annotate(admin, edge("db", "service", "depends-on", "san", null)));
        long edges = rows("topology_edges");
        long nodes = rows("topology_nodes");

        TestKernel.Response unknown = annotate(admin, edge("a", "host", "hosts", "b", "host"));
        refused(unknown, 422, "unknown_edge_kind");
        assertThat(unknown.json().path("extras").path("valid_kinds")).hasSize(10);
        assertThat(unknown.body()).contains("runs-on", "mounts", "routes-through", "belongs-to", "resolves-to", "allows");
        refused(annotate(admin, edge("brand-new", null, "depends-on", "san", null)), 422, "node_kind_required");
        refused(annotate(admin, edge("app", "service", "depends-on", "db", null)), 422, "ambiguous_node");
        refused(annotate(admin, edge("app", "Service!", "depends-on", "san", null)), 422, "invalid_node_kind");
        refused(annotate(admin, edge("app", "x", "depends-on", "san", null)), 422, "invalid_node_kind");
        refused(annotate(admin, edge(" app", "service", "depends-on", "san", null)), 422, "invalid_node_name");
        refused(annotate(admin, edge("app\u0001", "service", "depends-on", "san", null)), 422, "invalid_node_name");
        refused(annotate(admin, edge("san", null, "depends-on", "san", null)), 422, "invalid_edge");
        refused(annotate(admin, edge("san", "target", "depends-on", "db", "host")), 404, "node_not_found");
        Map<String, Object> longNote = edge("app", "service", "depends-on", "san", null);
        longNote.put("note", "n".repeat(2001));
        refused(annotate(admin, longNote), 422, "invalid_edge");
        Map<String, Object> badUrl = edge("app", "service", "depends-on", "san", null);
        badUrl.put("evidence_url", "javascript:alert(1)");
        refused(annotate(admin, badUrl), 422, "invalid_edge");
        Map<String, Object> withCredential = edge("app", "service", "depends-on", "san", null);
        withCredential.put("evidence_url", "https://admin:hunter2@wiki.example.com/page");
        TestKernel.Response credential = annotate(admin, withCredential);
        refused(credential, 422, "invalid_edge");
        assertThat(credential.body()).doesNotContain("hunter2");
        Map<String, Object> longUrl = edge("app", "service", "depends-on", "san", null);
        longUrl.put("evidence_url", "https://e.example.com/" + "p".repeat(2000));
        refused(annotate(admin, longUrl), 422, "invalid_edge");
        Map<String, Object> extra = edge("app", "service", "depends-on", "san", null);
        extra.put("colour", "blue");
        refused(annotate(admin, extra), 422, "invalid_request");
        refused(kernel.send("POST", "/api/v1/topology/edges", admin, "{not json", Map.of()), 400, "invalid_json");
        refused(kernel.post("/api/v1/topology/edges/unannotate", admin, Map.of("edge_id", "nope")), 400, "invalid_json");
        refused(kernel.post("/api/v1/topology/refresh", admin, Map.of()), 422, "invalid_request");
        refused(kernel.post("/api/v1/topology/refresh", admin, Map.of("target", "no-such-target")), 404, "node_not_found");
        assertThat(rows("topology_edges")).as("no refused write left a row").isEqualTo(edges);
        assertThat(rows("topology_nodes")).as("no refused write left a node").isEqualTo(nodes);

        // roles: writes tenant_admin (bulk: operator, SPEC's route table), reads operator
        refused(annotate(operator, edge("app", "service", "depends-on", "san", null)), 403, "insufficient_role");
        refused(kernel.post("/api/v1/topology/edges/unannotate", operator, Map.of("edge_id", UUID.randomUUID().toString())),
                403, "insufficient_role");
        refused(kernel.post("/api/v1/topology/refresh", operator, Map.of("target", "x")), 403, "insufficient_role");
        refused(kernel.post("/api/v1/topology/edges/bulk", readOnly, Map.of("edges", List.of())), 403, "insufficient_role");
        for (String read : List.of("/api/v1/topology/edges", "/api/v1/topology/dependencies?node=db",
                "/api/v1/topology/timeline", "/api/v1/topology/history?node=san",
                "/api/v1/topology/diff?t1=1h&t2=2026-01-01T00:00:00Z", "/api/v1/topology/path?from=a&to=b")) {
            refused(kernel.get(read, readOnly), 403, "insufficient_role");
        }

        // query arguments
        refused(kernel.get("/api/v1/topology/dependencies", operator), 422, "invalid_request");
        refused(kernel.get("/api/v1/topology/dependencies?node=san&depth=0", operator), 422, "invalid_depth");
        refused(kernel.get("/api/v1/topology/dependencies?node=san&depth=65", operator), 422, "invalid_depth");
        refused(kernel.get("/api/v1/topology/dependencies?node=san&depth=x", operator), 422, "invalid_depth");
        refused(kernel.get("/api/v1/topology/dependencies?node=san&kind=hosts", operator), 422, "unknown_edge_kind");
        refused(kernel.get("/api/v1/topology/dependencies?node=nobody", operator), 404, "node_not_found");
        refused(kernel.get("/api/v1/topology/dependents?node=db", operator), 422, "ambiguous_node");
        assertThat(get("/api/v1/topology/dependents?node=" + q("host:db")).path("nodes")).isEmpty();
        refused(kernel.get("/api/v1/topology/path?from=db&to=san&max_hops=33", operator), 422, "invalid_max_hops");
        refused(kernel.get("/api/v1/topology/path?from=san&to=san&max_hops=0", operator), 422, "invalid_max_hops");
        refused(kernel.get("/api/v1/topology/path?from=san", operator), 422, "invalid_request");
        refused(kernel.get("/api/v1/topology/edges?limit=0", operator), 422, "invalid_limit");
        refused(kernel.get("/api/v1/topology/edges?limit=1001", operator), 422, "invalid_limit");
        refused(kernel.get("/api/v1/topology/edges?offset=-1", operator), 422, "invalid_offset");
        refused(kernel.get("/api/v1/topology/edges?source=manual", operator), 422, "invalid_source");
        refused(kernel.get("/api/v1/topology/edges?kind=hosts", operator), 422, "unknown_edge_kind");
        refused(kernel.get("/api/v1/topology/history?node=san&limit=5001", operator), 422, "invalid_limit");
        refused(kernel.get("/api/v1/topology/history?node=nobody", operator), 404, "node_not_found");
        refused(kernel.get("/api/v1/topology/history?node=san&since=yesterday", operator), 422, "invalid_time");
        refused(kernel.get("/api/v1/topology/timeline?limit=1001", operator), 422, "invalid_limit");
        refused(kernel.get("/api/v1/topology/timeline?cursor=abc", operator), 422, "invalid_cursor");
        refused(kernel.get("/api/v1/topology/timeline?target=nobody", operator), 404, "node_not_found");
        refused(kernel.get("/api/v1/topology/diff?t1=1h", operator), 422, "invalid_request");
        refused(kernel.get("/api/v1/topology/diff?t1=1h&t2=soon", operator), 422, "invalid_time");
        refused(kernel.get("/api/v1/topology/diff?t1=1h&t2=1m&kind=hosts", operator), 422, "unknown_edge_kind");
    }

    @Test
    void targetsAreNodesByNameOrAlias() {
        kernel.registerTarget(admin, Map.of("name", "topo-" + tenant.toString().substring(0, 8), "aliases",
                List.of("shop-db"), "product", "topo", "host", "127.0.0.1", "port", 9));
        String name = "topo-" + tenant.toString().substring(0, 8);
        assertThat(get("/api/v1/topology/dependencies?node=shop-db").path("nodes"))
                .as("a target no edge touches is a node without edges").isEmpty();
        JsonNode e = ok(annotate(admin, edge("shop-api", "service", "depends-on", "shop-db", null)));
        assertThat(e.path("edge").path("to").asText()).isEqualTo(name);
        assertThat(e.path("edge").path("to_kind").asText()).isEqualTo("target");
        assertThat(get("/api/v1/topology/dependents?node=shop-db").path("nodes").findValuesAsText("name"))
                .containsExactly("shop-api");
        assertThat(get("/api/v1/topology/edges?to=shop-db").path("edges")).hasSize(1);
        refused(kernel.post("/api/v1/topology/refresh", admin, Map.of("target", "shop-db")), 422, "refresh_unsupported");
        assertThat(get("/api/v1/topology/timeline?target=shop-db").path("changes")).hasSize(1);
    }

    @Test
    void diffHistoryAndTimelineAnswerForPastInstants() {
        Instant t0 = tick();
        ok(annotate(admin, edge("api", "service", "depends-on", "pg", "datastore")));
        Instant t1 = tick();
        ok(annotate(admin, edge("api", null, "routes-through", "lb", "service")));
        Instant t2 = tick();
        Map<String, Object> noted = edge("api", null, "depends-on", "pg", null);
        noted.put("note", "primary");
        ok(annotate(admin, noted));
        ok(kernel.post("/api/v1/topology/edges/unannotate", admin, Map.of("from", "api", "kind", "routes-through",
                "to", "lb")));
        Instant t3 = tick();

        JsonNode d01 = get("/api/v1/topology/diff?t1=" + t0 + "&t2=" + t1);
        assertThat(d01.path("counts").path("added").asInt()).isEqualTo(1);
        assertThat(d01.path("edges").get(0).path("after").path("to").asText()).isEqualTo("pg");
        JsonNode d12 = get("/api/v1/topology/diff?t1=" + t1 + "&t2=" + t2);
        assertThat(d12.path("counts").path("added").asInt()).isEqualTo(1);
        assertThat(d12.path("counts").path("unchanged").asInt()).isEqualTo(1);
        JsonNode d23 = get("/api/v1/topology/diff?t1=" + t2 + "&t2=" + t3 + "&changed_only=true");
        assertThat(d23.path("counts").path("removed").asInt()).isEqualTo(1);
        assertThat(d23.path("counts").path("changed").asInt()).isEqualTo(1);
        assertThat(d23.path("edges")).hasSize(2);
        JsonNode changed = d23.path("edges").findParents("status").stream().filter(n -> n.path("status").asText()
                .equals("changed")).findFirst().orElseThrow();
        assertThat(changed.path("before").path("note").isNull()).isTrue();
        assertThat(changed.path("after").path("note").asText()).isEqualTo("primary");
        assertThat(get("/api/v1/topology/diff?t1=" + t1 + "&t2=" + t3 + "&kind=routes-through").path("edges"))
                .as("added after t1 and removed before t3: in neither").isEmpty();
        assertThat(get("/api/v1/topology/diff?t1=" + t0 + "&t2=" + t3 + "&kind=depends-on").path("counts")
                .path("added").asInt()).isEqualTo(1);

        JsonNode history = get("/api/v1/topology/history?node=api&include_edges=true");
        assertThat(changes(history.path("entries"))).containsExactly("edge-removed", "edge-updated",
                "edge-created", "edge-created", "node-created");
        assertThat(changes(get("/api/v1/topology/history?node=api").path("entries")))
                .containsExactly("node-created");
        assertThat(changes(get("/api/v1/topology/history?node=api&include_edges=true&since=" + t2 + "&until=" + t3)
                .path("entries"))).containsExactly("edge-removed", "edge-updated");
        assertThat(get("/api/v1/topology/history?node=api&include_edges=true&limit=2").path("entries")).hasSize(2);

        JsonNode page1 = get("/api/v1/topology/timeline?limit=3");
        assertThat(changes(page1.path("changes"))).containsExactly("removed", "updated", "created");
        JsonNode page2 = get("/api/v1/topology/timeline?limit=3&cursor=" + page1.path("next_cursor").asText());
        assertThat(changes(page2.path("changes"))).containsExactly("created");
        assertThat(page2.path("next_cursor").isNull()).isTrue();
        assertThat(get("/api/v1/topology/timeline?since=" + t1 + "&until=" + t2).path("changes")).hasSize(1);
    }

    @Test
    void traversalsFollowWritesAndPathSearchIsBoundedOnADenseMesh() {
        List<Map<String, Object>> edges = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            edges.add(edge("c" + i, "service", "depends-on", "c" + (i + 1), "service"));
        }
        // two dense meshes, 300 nodes and 3000 edges each, with no edge between them
        Random random = new Random(7);
        for (String mesh : List.of("m", "n")) {
            for (int i = 0; i < 300; i++) {
                for (int k = 0; k < 10; k++) {
                    int j = (i + 1 + random.nextInt(299)) % 300;
                    edges.add(edge(mesh + i, "host", "depends-on", mesh + j, "host"));
                }
            }
        }
        JsonNode imported = ok(kernel.post("/api/v1/topology/edges/bulk", operator, Map.of("edges", edges)));
        assertThat(imported.path("result").path("created").asInt()).isGreaterThan(5000);

        assertThat(get("/api/v1/topology/path?from=c0&to=c9&max_hops=9").path("hops")).hasSize(9);
        JsonNode tooFar = get("/api/v1/topology/path?from=c0&to=c9&max_hops=8");
        assertThat(tooFar.path("found").asBoolean()).isFalse();
        assertThat(get("/api/v1/topology/path?from=c9&to=c0").path("found").asBoolean()).as("paths are directed").isFalse();
        assertThat(get("/api/v1/topology/dependencies?node=c0&depth=3").path("nodes").findValuesAsText("name"))
                .containsExactly("c1", "c2", "c3");
        assertThat(get("/api/v1/topology/dependents?node=c9&depth=2").path("nodes").findValuesAsText("name"))
                .containsExactly("c8", "c7");
        assertThat(get("/api/v1/topology/dependencies?node=c0&node_kind=host").path("nodes")).isEmpty();
        assertThat(get("/api/v1/topology/dependencies?node=c0&kind=runs-on").path("nodes")).isEmpty();

        // the worst case: both ends in dense meshes, no path at all — every max_hops answers (the search marks
        // each node once per side, so its work is bounded by the graph; no wall-clock check, which flakes on CI)
        for (int hops : List.of(1, 8, 32)) {
            JsonNode none = get("/api/v1/topology/path?from=m0&to=n0&max_hops=" + hops);
            assertThat(none.path("found").asBoolean()).as("unreachable with max_hops " + hops).isFalse();
        }
        JsonNode inMesh = get("/api/v1/topology/path?from=m0&to=m299");
        assertThat(inMesh.path("found").asBoolean()).isTrue();
        assertThat(inMesh.path("hops").size()).isBetween(1, 8);
        for (int i = 1; i < inMesh.path("hops").size(); i++) {
            assertThat(inMesh.path("hops").get(i).path("from").asText())
                    .isEqualTo(inMesh.path("hops").get(i - 1).path("to").asText());
        }

        // the in-memory graph follows writes: a new edge shortens the path, its removal restores it
        ok(annotate(admin, edge("c0", null, "depends-on", "c9", null)));
        assertThat(get("/api/v1/topology/path?from=c0&to=c9").path("hops")).hasSize(1);
        ok(kernel.post("/api/v1/topology/edges/unannotate", admin, Map.of("from", "c0", "kind", "depends-on", "to", "c9")));
        assertThat(get("/api/v1/topology/path?from=c0&to=c9&max_hops=9").path("hops")).hasSize(9);
    }

    @Test
    void dependencyLoopsAreAnsweredOnceWithTheWalk() {
        List<Map<String, Object>> edges = List.of(edge("loop-a", "service", "depends-on", "loop-b", "service"),
                edge("loop-b", "service", "depends-on", "loop-c", "service"),
                edge("loop-c", "service", "depends-on", "loop-a", "service"),
                edge("loop-c", "service", "runs-on", "loop-vm", "vm"));
        ok(kernel.post("/api/v1/topology/edges/bulk", operator, Map.of("edges", edges)));

        JsonNode deps = get("/api/v1/topology/dependencies?node=loop-a");
        assertThat(deps.path("nodes").findValuesAsText("name")).containsExactly("loop-b", "loop-c", "loop-vm");
        assertThat(deps.path("cycles")).as(deps.toString()).hasSize(1);
        assertThat(deps.path("cycles").get(0)).extracting(JsonNode::asText)
                .containsExactly("service:loop-a", "service:loop-b", "service:loop-c");
        assertThat(deps.path("cycles_truncated").asBoolean()).isFalse();
        JsonNode up = get("/api/v1/topology/dependents?node=loop-vm");
        assertThat(up.path("cycles").get(0)).as("dependents answer the same loop, in their own order")
                .extracting(JsonNode::asText).containsExactly("service:loop-c", "service:loop-b", "service:loop-a");
        assertThat(get("/api/v1/topology/dependencies?node=loop-vm").path("cycles")).as("no loop").isEmpty();
        assertThat(get("/api/v1/topology/dependencies?node=loop-a&kind=runs-on").path("cycles"))
                .as("only the followed edges close a loop").isEmpty();

        var cli = kernel.cli(operator);
        var out = cli.run("topology", "dependencies", "loop-b");
        assertThat(out.exitCode()).as(out.toString()).isZero();
        assertThat(out.out()).contains("loop: service:loop-b, service:loop-c, service:loop-a");
        assertThat(cli.run("topology", "dependencies", "loop-vm").out()).doesNotContain("loop:");
    }

    @Test
    void bulkImportDryRunWritesNothing() {
        List<Map<String, Object>> edges = List.of(edge("b1", "vm", "runs-on", "h1", "host"),
                edge("b2", "vm", "runs-on", "h1", "host"), edge("b1", "vm", "backed-up-by", "vault", "datastore"));
        long edgeRows = rows("topology_edges");
        long nodeRows = rows("topology_nodes");
        long audit = rows("audit_rows");
        long feed = rows("broadcast_events");
        JsonNode plan = ok(kernel.post("/api/v1/topology/edges/bulk", operator, Map.of("edges", edges, "dry_run", true)));
        assertThat(plan.path("dry_run").asBoolean()).isTrue();
        assertThat(plan.path("plan").path("created").asInt()).isEqualTo(3);
        assertThat(rows("topology_edges")).isEqualTo(edgeRows);
        assertThat(rows("topology_nodes")).isEqualTo(nodeRows);
        assertThat(rows("audit_rows")).as("a dry run writes no audit row").isEqualTo(audit);
        assertThat(rows("broadcast_events")).as("a dry run emits no broadcast event").isEqualTo(feed);
        refused(kernel.get("/api/v1/topology/dependencies?node=b1", operator), 404, "node_not_found");

        JsonNode applied = ok(kernel.post("/api/v1/topology/edges/bulk", operator, Map.of("edges", edges)));
        assertThat(applied.path("result").path("created").asInt()).isEqualTo(3);
        assertThat(rows("topology_edges")).isEqualTo(edgeRows + 3);
        assertThat(kernel.jdbc().queryOne("SELECT count(*) FROM audit_rows WHERE tenant_id = ? AND op_id = ?",
                rs -> rs.getLong(1), tenant, "svc.topology.bulk-import").orElseThrow()).isEqualTo(1);
        assertThat(get("/api/v1/topology/dependencies?node=b1").path("nodes").findValuesAsText("name"))
                .containsExactlyInAnyOrder("h1", "vault");
        JsonNode again = ok(kernel.post("/api/v1/topology/edges/bulk", operator, Map.of("edges", edges, "dry_run", true)));
        assertThat(again.path("plan").path("unchanged").asInt()).isEqualTo(3);

        List<Map<String, Object>> bad = new ArrayList<>(edges);
        bad.add(edge("b3", "vm", "hosts", "h1", null));
        bad.add(edge("b4", null, "runs-on", "h1", null));
        Map<String, Object> longNote = edge("b5", "vm", "runs-on", "h1", null);
        longNote.put("note", "x".repeat(2001));
        bad.add(longNote);
        long before = rows("topology_edges");
        TestKernel.Response r = kernel.post("/api/v1/topology/edges/bulk", operator, Map.of("edges", bad));
        refused(r, 422, "invalid_edge");
        assertThat(r.json().path("extras").path("problems").findValuesAsText("index")).containsExactly("3", "4", "5");
        assertThat(r.json().path("extras").path("valid_kinds")).hasSize(10);
        assertThat(rows("topology_edges")).isEqualTo(before);
        refused(kernel.post("/api/v1/topology/edges/bulk", operator, Map.of("dry_run", true)), 422, "invalid_body");
        List<Map<String, Object>> tooMany = java.util.Collections.nCopies(100_001, Map.of());
        refused(kernel.post("/api/v1/topology/edges/bulk", operator, Map.of("edges", tooMany)), 422, "too_many_edges");
    }

    @Test
    void theCliDrivesEveryVerb() throws Exception {
        var cli = kernel.cli(admin);
        var a = cli.run("topology", "annotate", "pay-api", "depends-on", "pay-db", "--from-kind", "service", "--to-kind",
                "datastore", "--note", "writes orders");
        assertThat(a.exitCode()).as(a.toString()).isZero();
        assertThat(a.out()).contains("created: service pay-api  -depends-on->  datastore pay-db  [curated]");
        assertThat(cli.run("topology", "annotate", "pay-db", "runs-on", "vm-1", "--to-kind", "vm").exitCode()).isZero();
        var bad = cli.run("topology", "annotate", "pay-db", "hosts", "vm-1");
        assertThat(bad.exitCode()).isNotZero();
        assertThat(bad.err()).contains("unknown_edge_kind").contains("runs-on");
        assertThat(cli.run("topology", "dependencies", "pay-api", "--depth", "65").exitCode()).isEqualTo(2);
        var deps = cli.run("topology", "dependencies", "pay-api");
        assertThat(deps.out()).contains("pay-db").contains("vm-1");
        assertThat(cli.run("topology", "dependents", "vm-1", "--depth", "1").out()).contains("pay-db")
                .doesNotContain("pay-api");
        var path = cli.run("topology", "path", "pay-api", "vm-1");
        assertThat(path.out()).contains("2 hops");
        assertThat(cli.run("topology", "path", "vm-1", "pay-api", "--max-hops", "3").out()).contains("no path");
        assertThat(cli.run("topology", "list-edges", "--from", "pay-api").out()).contains("pay-db");
        assertThat(cli.run("topology", "list-edges", "--source", "manual").exitCode()).isEqualTo(2);
        assertThat(cli.run("topology", "history", "pay-api", "--include-edges").out()).contains("edge-created");
        assertThat(cli.run("topology", "timeline", "--limit", "1").out()).contains("--cursor");
        assertThat(cli.run("topology", "diff", "1h", Instant.now().plusSeconds(1).toString(), "--changed-only").out())
                .contains("added 2");
        Path file = TempDirs.file("edges", ".json");
        Files.writeString(file, JSON.writeValueAsString(Map.of("edges", List.of(edge("pay-api", null, "routes-through",
                "pay-lb", "service")))));
        assertThat(cli.run("topology", "bulk-import", file.toString(), "--dry-run").out()).contains("dry run")
                .contains("created 1");
        assertThat(cli.run("topology", "list-edges", "--kind", "routes-through").out()).contains("no edges");
        assertThat(cli.run("topology", "bulk-import", file.toString()).out()).contains("imported: 1 edges")
                .contains("created 1");
        var un = cli.run("topology", "unannotate", "pay-api", "routes-through", "pay-lb");
        assertThat(un.exitCode()).as(un.toString()).isZero();
        assertThat(un.out()).contains("removed:");
        assertThat(cli.run("topology", "unannotate", "not-a-uuid").exitCode()).isEqualTo(2);
        var json = cli.run("topology", "list-edges", "--json");
        assertThat(JSON.readTree(json.out()).path("edges")).hasSize(2);
        assertThat(kernel.cli(operator).run("topology", "annotate", "a", "depends-on", "b", "--from-kind", "service",
                "--to-kind", "service").err()).contains("insufficient_role");
    }
}
