package dev.backplane.kernel.events;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.backplane.kernel.persistence.Jdbc;
import dev.backplane.kernel.testing.TempDirs;
import dev.backplane.kernel.testing.TestIssuer;
import dev.backplane.kernel.testing.TestKernel;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Property-based fuzz of the ingest route (jqwik): random bytes, deep JSON, huge numbers, escapes
 * PostgreSQL cannot store (NUL, lone surrogates), unicode, odd content types, random proof headers —
 * with and without the right secret. Never a 5xx, and the event log grows by exactly the deliveries
 * answered {@code accepted}: nothing is stored from a refused request.
 */
class EventIngestFuzzIT {

    private static final String SECRET = "fuzz-secret-0123456789abcdef";
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static TestIssuer issuer;
    private static TestKernel kernel;
    private static Jdbc jdbc;
    private static String slug;

    @BeforeContainer
    static void start() throws Exception {
        Path work = TempDirs.create("svc-events-fuzz");
        issuer = new TestIssuer();
        Map<String, String> env = TestKernel.settings(issuer, Files.createDirectories(work.resolve("plugins")));
        env.put("SVC_EVENTS_MAX_BODY_BYTES", "32768");
        kernel = TestKernel.start(work.resolve("data"), env);
        jdbc = new Jdbc(kernel.kernel().database().dataSource());
        UUID tenant = UUID.randomUUID();
        var r = kernel.send("POST", "/api/v1/event-sources", issuer.token("admin", tenant, "tenant_admin"),
                JSON.writeValueAsString(Map.of("name", "fuzz", "kind", "alertrouter", "auth_strategy", "static-header",
                        "secret", SECRET, "extras", Map.of("rate_per_second", 100000, "burst", 100000))), Map.of());
        assertThat(r.status()).as(r.body()).isEqualTo(201);
        slug = r.json().path("slug").asText();
    }

    @AfterContainer
    static void stop() {
        kernel.close();
        issuer.close();
    }

    @Property(seed = "5967275844788342781", tries = 400)
    void theIngestRouteNeverFailsAndStoresOnlyWhatItAccepts(@ForAll("bodies") byte[] body,
                                                           @ForAll("contentTypes") String contentType,
                                                           @ForAll("tokens") String token) throws Exception {
        long before = count();
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(kernel.url() + "/api/v1/events/ingest/" + slug))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (!contentType.isEmpty()) {
            b.header("Content-Type", contentType);
        }
        if (!token.isEmpty()) {
            b.header("X-Svc-Token", token);
        }
        HttpResponse<String> r = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isLessThan(500);
        boolean accepted = r.statusCode() == 200 && JSON.readTree(r.body()).path("status").asText().equals("accepted");
        assertThat(count()).as("stored only when accepted").isEqualTo(before + (accepted ? 1 : 0));
        if (body.length > 32768) {
            assertThat(r.statusCode()).as("the cap is checked first").isEqualTo(413);
        } else if (!token.equals(SECRET)) {
            assertThat(r.statusCode()).as("no secret, no entry").isEqualTo(401);
        }
    }

    private static long count() {
        return jdbc.queryOne("SELECT count(*) FROM events WHERE source_slug = ?", rs -> rs.getLong(1), slug).orElseThrow();
    }

    @Provide
    Arbitrary<String> tokens() {
        return Arbitraries.frequencyOf(List.of(
                net.jqwik.api.Tuple.of(6, Arbitraries.just(SECRET)),
                net.jqwik.api.Tuple.of(1, Arbitraries.just("")),
                net.jqwik.api.Tuple.of(1, Arbitraries.strings().withCharRange(' ', '~').ofMaxLength(64)),
                net.jqwik.api.Tuple.of(1, Arbitraries.just(SECRET + "x")),
                net.jqwik.api.Tuple.of(1, Arbitraries.just(SECRET.substring(1)))));
    }

    @Provide
    Arbitrary<String> contentTypes() {
        return Arbitraries.of("", "application/json", "text/plain", "application/xml", "application/json; charset=latin1",
                "multipart/form-data; boundary=x", "application/x-www-form-urlencoded");
    }

    @Provide
    Arbitrary<byte[]> bodies() {
        Arbitrary<String> text = Arbitraries.strings().all().ofMaxLength(200);
        Arbitrary<String> escapes = Arbitraries.of("\\u0000", "\\ud800", "\\udfff", "\\ud83d\\ude00", "\\n", "\\\\", "\\\"",
                "é", "𝄞", "\u2028").list().ofMaxSize(10).map(l -> "{\"status\":\"" + String.join("", l) + "\"}");
        Arbitrary<String> deep = Arbitraries.integers().between(1, 4000).flatMap(n -> Arbitraries.of("[", "{\"a\":")
                .map(open -> open.repeat(n) + "1" + (open.equals("[") ? "]" : "}").repeat(n)));
        Arbitrary<String> numbers = Arbitraries.of("1e999999", "-1e-999999", "123456789012345678901234567890",
                "NaN", "Infinity", "-0", "0.0000000000000000000000001").map(v -> "{\"n\":" + v + "}");
        Arbitrary<String> shaped = Combinators.combine(Arbitraries.of("firing", "resolved", "", "null"),
                Arbitraries.of("{}", "[]", "null", "1", "{\"severity\":\"critical\"}", "{\"a\":{\"b\":[1,{}]}}"),
                Arbitraries.integers().between(0, 5)).as((status, labels, alerts) -> "{\"status\":\"" + status
                + "\",\"commonLabels\":" + labels + ",\"groupKey\":\"g" + alerts + "\",\"alerts\":["
                + "{\"status\":\"firing\",\"fingerprint\":\"f\"},".repeat(alerts) + "{}]}");
        Arbitrary<String> structural = Arbitraries.of("", "{", "}", "{\"a\":1}{\"b\":2}", "{\"a\":1,\"a\":2}", "null",
                "\"str\"", "[]", "true", "{\"a\":}", "\u0000", "{\"a\":\"\u0000\"}");
        return Arbitraries.oneOf(
                text.map(t -> t.getBytes(StandardCharsets.UTF_8)),
                Arbitraries.bytes().array(byte[].class).ofMaxSize(512),
                escapes.map(t -> t.getBytes(StandardCharsets.UTF_8)),
                deep.map(t -> t.getBytes(StandardCharsets.UTF_8)),
                numbers.map(t -> t.getBytes(StandardCharsets.UTF_8)),
                shaped.map(t -> t.getBytes(StandardCharsets.UTF_8)),
                structural.map(t -> t.getBytes(StandardCharsets.UTF_8)),
                Arbitraries.integers().between(32_000, 40_000).map(n -> ("{\"x\":\"" + "a".repeat(n) + "\"}")
                        .getBytes(StandardCharsets.UTF_8)));
    }

}
