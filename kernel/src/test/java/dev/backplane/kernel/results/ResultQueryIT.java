package dev.backplane.kernel.results;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.backplane.kernel.errors.DomainException;
import dev.backplane.kernel.persistence.Database;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.testing.ScratchDatabase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** result_query against stored rows in a real PostgreSQL: paging, every operator, grouping, the injection corpus. */
class ResultQueryIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final UUID TENANT = UUID.randomUUID();
    private static final String ME = "alice";
    private static Database db;
    private static ResultHandles handles;
    private static ResultQueryService service;
    private static String handle;

    @BeforeAll
    static void start() throws Exception {
        db = ScratchDatabase.start("svc-rq");
        Jdbc jdbc = new Jdbc(db.dataSource());
        handles = new ResultHandles(jdbc, Duration.ofHours(1));
        service = new ResultQueryService(jdbc, handles);
        List<Map<String, Object>> rows = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("name", "pod-" + i);
            row.put("ns", i % 4 == 0 ? "kube-system" : "web");
            row.put("cpu", i);
            row.put("phase", i % 10 == 0 ? "Failed" : "Running");
            row.put("node", i % 7 == 0 ? null : "node-" + (i % 3));
            rows.add(row);
        }
        handle = handles.store(TENANT, ME, "k8s.pod.list", rows).id().toString();
    }

    @AfterAll
    static void stop() {
        db.close();
    }

    private static ResultQuery.Response q(String json) throws Exception {
        Map<String, Object> body = new HashMap<>(JSON.readValue(json, Map.class));
        body.put("handle_id", handle);
        return service.query(TENANT, ME, dev.backplane.kernel.http.Json.mapper().convertValue(body, ResultQuery.class));
    }

    private static JsonNode rows(ResultQuery.Response r) {
        return JSON.valueToTree(r.rows());
    }

    @Test
    void pagingDefaultsTo50AndClampsAt500() throws Exception {
        ResultQuery.Response first = q("{}");
        assertThat(first.limit()).isEqualTo(50);
        assertThat(first.returnedRows()).isEqualTo(50);
        assertThat(first.totalRows()).isEqualTo(200);
        assertThat(first.storedRows()).isEqualTo(200);
        assertThat(first.truncated()).isTrue();
        assertThat(rows(first).get(0).path("name").asText()).isEqualTo("pod-0");
        ResultQuery.Response last = q("{\"offset\": 190, \"limit\": 50}");
        assertThat(last.returnedRows()).isEqualTo(10);
        assertThat(last.truncated()).isFalse();
        assertThat(q("{\"limit\": 5000}").limit()).isEqualTo(500);
        assertThat(q("{\"offset\": 500}").returnedRows()).isZero();
    }

    @Test
    void whereSupportsEveryOperator() throws Exception {
        assertThat(q("{\"query\": {\"where\": [{\"field\": \"ns\", \"op\": \"=\", \"value\": \"kube-system\"}]}}")
                .totalRows()).isEqualTo(50);
        assertThat(q("{\"query\": {\"where\": [{\"field\": \"ns\", \"op\": \"!=\", \"value\": \"kube-system\"}]}}")
                .totalRows()).isEqualTo(150);
        assertThat(q("{\"query\": {\"where\": [{\"field\": \"cpu\", \"op\": \">=\", \"value\": 190}]}}").totalRows())
                .isEqualTo(10);
        assertThat(q("{\"query\": {\"where\": [{\"field\": \"cpu\", \"op\": \"<\", \"value\": 5}, "
                + "{\"field\": \"cpu\", \"op\": \">\", \"value\": 1}]}}").totalRows()).isEqualTo(3);
        assertThat(q("{\"query\": {\"where\": [{\"field\": \"name\", \"op\": \"<=\", \"value\": \"pod-10\"}]}}")
                .totalRows()).as("string comparison").isEqualTo(3);
        assertThat(q("{\"query\": {\"where\": [{\"field\": \"phase\", \"op\": \"IN\", \"value\": [\"Failed\", \"Gone\"]}]}}")
                .totalRows()).isEqualTo(20);
        assertThat(q("{\"query\": {\"where\": [{\"field\": \"node\", \"op\": \"IS NULL\"}]}}").totalRows()).isEqualTo(29);
        assertThat(q("{\"query\": {\"where\": [{\"field\": \"node\", \"op\": \"is not null\"}]}}").totalRows())
                .isEqualTo(171);
    }

    @Test
    void selectOrderAndGroup() throws Exception {
        JsonNode top = rows(q("{\"query\": {\"select\": [\"name\", \"cpu\"], \"order_by\": [{\"field\": \"cpu\", "
                + "\"dir\": \"desc\"}], \"limit\": 2}}"));
        assertThat(top.toString()).isEqualTo("[{\"cpu\":199,\"name\":\"pod-199\"},{\"cpu\":198,\"name\":\"pod-198\"}]");

        ResultQuery.Response grouped = q("{\"query\": {\"group_by\": [\"ns\", \"phase\"], \"aggregates\": ["
                + "{\"fn\": \"COUNT\"}, {\"fn\": \"sum\", \"field\": \"cpu\"}, {\"fn\": \"AVG\", \"field\": \"cpu\", "
                + "\"as\": \"mean\"}, {\"fn\": \"MAX\", \"field\": \"cpu\"}], \"order_by\": [{\"field\": \"count\", "
                + "\"dir\": \"desc\"}]}}");
        assertThat(grouped.totalRows()).isEqualTo(4);
        JsonNode g = rows(grouped);
        assertThat(g.get(0).path("ns").asText()).isEqualTo("web");
        assertThat(g.get(0).path("phase").asText()).isEqualTo("Running");
        assertThat(g.get(0).path("count").asInt()).isEqualTo(140);
        int total = 0;
        for (JsonNode row : g) {
            total += row.path("count").asInt();
            assertThat(row.has("sum_cpu")).isTrue();
            assertThat(row.has("mean")).isTrue();
            assertThat(row.has("max_cpu")).isTrue();
        }
        assertThat(total).isEqualTo(200);

        JsonNode whole = rows(q("{\"query\": {\"aggregates\": [{\"fn\": \"SUM\", \"field\": \"cpu\"}, "
                + "{\"fn\": \"COUNT\", \"field\": \"node\"}]}}"));
        assertThat(whole.get(0).path("sum_cpu").asLong()).isEqualTo(19900);
        assertThat(whole.get(0).path("count_node").asInt()).as("COUNT(field) counts present values").isEqualTo(200);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "{\"query\": {\"where\": [{\"field\": \"name'; DROP TABLE results_rows; --\", \"op\": \"=\", \"value\": 1}]}}",
        "{\"query\": {\"select\": [\"name\\\") FROM pg_shadow --\"]}}",
        "{\"query\": {\"order_by\": [{\"field\": \"cpu\", \"dir\": \"desc; DELETE FROM results_handles\"}]}}",
        "{\"query\": {\"where\": [{\"field\": \"cpu\", \"op\": \"= 1 OR 1=1 --\", \"value\": 1}]}}",
        "{\"query\": {\"aggregates\": [{\"fn\": \"pg_sleep\", \"field\": \"cpu\"}]}}",
        "{\"query\": {\"aggregates\": [{\"fn\": \"COUNT\", \"as\": \"x\\\"; drop\"}]}}",
        "{\"query\": {\"group_by\": [\"ns\", \"phase\", \"name\", \"cpu\", \"node\"]}}",
        "{\"query\": {\"order_by\": [{\"field\": \"ns\"}, {\"field\": \"ns\"}, {\"field\": \"ns\"}, {\"field\": \"ns\"}, {\"field\": \"ns\"}]}}",
        "{\"query\": {\"where\": [{\"field\": \"ns\", \"op\": \"=\", \"value\": {\"nested\": {\"deeper\": [1, [2, [3]]]}}}]}}",
        "{\"query\": {\"where\": [{\"field\": \"ns\", \"op\": \"IN\", \"value\": [[\"a\"], {\"b\": 1}]}]}}",
        "{\"query\": {\"where\": [{\"field\": \"cpu\", \"op\": \"<\", \"value\": true}]}}",
        "{\"query\": {\"select\": [\"name\"], \"group_by\": [\"ns\"]}}",
        "{\"query\": {\"group_by\": [\"ns\"], \"order_by\": [{\"field\": \"cpu\"}]}}",
        "{\"offset\": -1}"
    })
    void hostileOrMalformedQueriesAreRejectedWithInvalidQuery(String json) {
        assertThatThrownBy(() -> q(json)).isInstanceOf(DomainException.class)
                .satisfies(e -> assertThat(((DomainException) e).code()).isEqualTo("invalid_query"));
        assertThat(handles.require(TENANT, ME, handle).rowCount()).as("nothing was harmed").isEqualTo(200);
    }

    @ParameterizedTest
    @ValueSource(strings = {"x' OR '1'='1", "'; DROP TABLE results_rows; --", "/* comment */ web", "😀 ünïcödé",
        "\\\\'\\\"", "$$; SELECT 1; $$"})
    void hostileValuesAreBoundNotExecuted(String value) throws Exception {
        String v = JSON.writeValueAsString(value);
        assertThat(q("{\"query\": {\"where\": [{\"field\": \"ns\", \"op\": \"=\", \"value\": " + v + "}]}}").totalRows())
                .isZero();
        // bound as a value: exactly the names the database itself orders after it, never more or fewer (F15)
        long after = new Jdbc(db.dataSource()).queryOne("SELECT count(*) FROM generate_series(0, 199) i "
                + "WHERE ('pod-' || i) > ?", rs -> rs.getLong(1), value).orElseThrow();
        assertThat(q("{\"query\": {\"where\": [{\"field\": \"name\", \"op\": \">\", \"value\": " + v + "}]}}")
                .totalRows()).isEqualTo(after);
        assertThat(handles.require(TENANT, ME, handle).rowCount()).isEqualTo(200);
    }

    /** Security review property 15: a query past the statement timeout is query_too_expensive, not a 500. */
    @Test
    void aQueryPastTheStatementTimeoutIsQueryTooExpensive() throws Exception {
        List<Map<String, Object>> big = new ArrayList<>();
        for (int i = 0; i < 60_000; i++) {
            big.add(Map.of("name", "p-" + i, "ns", "ns-" + (i % 97), "cpu", i));
        }
        String bigHandle = handles.store(TENANT, ME, "k8s.pod.list", big).id().toString();
        ResultQueryService impatient = new ResultQueryService(new Jdbc(db.dataSource()), handles, 1);
        Map<String, Object> body = new HashMap<>(JSON.readValue("{\"query\": {\"group_by\": [\"ns\"], \"aggregates\": "
                + "[{\"fn\": \"SUM\", \"field\": \"cpu\"}], \"order_by\": [{\"field\": \"ns\"}]}}", Map.class));
        body.put("handle_id", bigHandle);
        var request = dev.backplane.kernel.http.Json.mapper().convertValue(body, ResultQuery.class);
        assertThatThrownBy(() -> impatient.query(TENANT, ME, request)).isInstanceOf(DomainException.class)
                .satisfies(e -> assertThat(((DomainException) e).code()).isEqualTo("query_too_expensive"));
        assertThat(service.query(TENANT, ME, request).rows()).as("the normal timeout answers it (first page)").hasSize(50);
    }

    @Test
    void aNulCharacterInAValueIsAClearErrorNotAServerError() {
        assertThatThrownBy(() -> q("{\"query\": {\"where\": [{\"field\": \"ns\", \"op\": \"=\", \"value\": \"a\\u0000b\"}]}}"))
                .isInstanceOf(DomainException.class).hasMessageContaining("NUL");
        assertThatThrownBy(() -> q("{\"query\": {\"where\": [{\"field\": \"ns\", \"op\": \"IN\", \"value\": [\"\\u0000\"]}]}}"))
                .isInstanceOf(DomainException.class).hasMessageContaining("NUL");
    }

    @Test
    void hugeInListsAreCappedAndLargeOnesWork() throws Exception {
        List<Object> thousand = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            thousand.add("pod-" + i);
        }
        assertThat(q("{\"query\": {\"where\": [{\"field\": \"name\", \"op\": \"IN\", \"value\": "
                + JSON.writeValueAsString(thousand) + "}]}}").totalRows()).isEqualTo(200);
        thousand.add("one-too-many");
        assertThatThrownBy(() -> q("{\"query\": {\"where\": [{\"field\": \"name\", \"op\": \"IN\", \"value\": "
                + JSON.writeValueAsString(thousand) + "}]}}")).hasMessageContaining("at most 1000");
    }

    @Test
    void foreignExpiredAndMissingHandlesAreIndistinguishable() throws Exception {
        List<String> messages = new ArrayList<>();
        for (Runnable r : List.<Runnable>of(
                () -> service.query(UUID.randomUUID(), ME, new ResultQuery(handle, null, null, null)),
                () -> service.query(TENANT, "mallory", new ResultQuery(handle, null, null, null)),
                () -> service.query(TENANT, ME, new ResultQuery(UUID.randomUUID().toString(), null, null, null)),
                () -> service.query(TENANT, ME, new ResultQuery("not-a-uuid", null, null, null)))) {
            DomainException e = (DomainException) org.assertj.core.api.Assertions.catchThrowable(r::run);
            assertThat(e.code()).isEqualTo("handle_not_found");
            assertThat(e.getMessage()).contains("re-run the operation");
            messages.add(e.getMessage().replaceAll("handle \\S+", "handle X"));
        }
        assertThat(messages).as("no way to tell the cases apart").containsOnly(messages.getFirst());

        ResultHandles shortLived = new ResultHandles(new Jdbc(db.dataSource()), Duration.ofMillis(1));
        String expired = shortLived.store(TENANT, ME, "op.x.list", List.of(Map.of("a", 1))).id().toString();
        Thread.sleep(20);
        DomainException e = (DomainException) org.assertj.core.api.Assertions.catchThrowable(
                () -> service.query(TENANT, ME, new ResultQuery(expired, null, null, null)));
        assertThat(e.code()).isEqualTo("handle_not_found");
        assertThat(shortLived.sweepExpired()).isGreaterThanOrEqualTo(1);
    }

    @Test
    void rowsWithNulCharactersAreStoredSafely() throws Exception {
        String h = handles.store(TENANT, ME, "op.x.list", List.of(Map.of("msg", "bad\u0000byte", "nested",
                Map.of("list", List.of("a\u0000"))))).id().toString();
        var r = service.query(TENANT, ME, new ResultQuery(h, null, null, null));
        assertThat(JSON.valueToTree(r.rows()).get(0).path("msg").asText()).isEqualTo("bad\uFFFDbyte");
    }
}
