package dev.backplane.kernel.events;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.backplane.kernel.testing.Replicas;
import dev.backplane.kernel.testing.TestKernel;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The per-source webhook rate limit holds across replicas: its bucket is in PostgreSQL, so two kernels on
 * one database together accept a source's burst once, not once each; a deleted source's bucket goes too.
 */
class SharedRateLimitIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final String SECRET = "s3cret-for-basic-0123456789";
    private static final int BURST = 10;

    @Test
    void aSourcesBurstIsSharedByBothReplicasAndItsBucketGoesWithTheSource(@TempDir Path work) throws Exception {
        try (Replicas replicas = Replicas.start(work, Map.of())) {
            TestKernel a = replicas.a();
            TestKernel b = replicas.b();
            var created = a.send("POST", "/api/v1/event-sources", replicas.admin(), JSON.writeValueAsString(Map.of(
                    "name", "shared-" + UUID.randomUUID(), "kind", "generic-json", "auth_strategy", "basic",
                    "secret", SECRET, "extras", Map.of("rate_per_second", 1, "burst", BURST,
                            "basic_username", "sender"))), Map.of());
            assertThat(created.status()).as(created.body()).isEqualTo(201);
            String slug = created.json().path("slug").asText();
            UUID id = UUID.fromString(created.json().path("id").asText());
            String basic = "Basic " + Base64.getEncoder().encodeToString(("sender:" + SECRET)
                    .getBytes(StandardCharsets.UTF_8));
            for (TestKernel k : List.of(a, b)) { // both know the source (a wrong password costs no token)
                assertThat(post(k, slug, "{}", "Basic eDp5").statusCode()).isEqualTo(401);
            }

            int accepted = 0;
            int limited = 0;
            long t0 = System.nanoTime();
            for (int i = 0; i < 3 * BURST; i++) {
                var r = post(i % 2 == 0 ? a : b, slug, "{\"n\":" + i + "}", basic);
                if (r.statusCode() == 429) {
                    limited++;
                    assertThat(r.headers().firstValue("Retry-After")).hasValue("1");
                } else {
                    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
                    accepted++;
                }
            }
            double seconds = (System.nanoTime() - t0) / 1e9;
            System.out.printf("SharedRateLimitIT: %d accepted, %d limited in %.2f s across two replicas%n", accepted,
                    limited, seconds);
            // the burst once, plus what 1/s refilled meanwhile; per-replica buckets would accept 2 x BURST
            assertThat(accepted).isBetween(BURST, BURST + (int) Math.ceil(seconds));
            assertThat(accepted).isLessThan(2 * BURST);
            assertThat(a.jdbc().queryOne("SELECT count(*) FROM event_rate_buckets WHERE source_id = ?",
                    rs -> rs.getInt(1), id)).hasValue(1);

            assertThat(b.send("DELETE", "/api/v1/event-sources/" + slug, replicas.admin(), null, Map.of()).status())
                    .isIn(200, 204);
            assertThat(a.jdbc().queryOne("SELECT count(*) FROM event_rate_buckets WHERE source_id = ?",
                    rs -> rs.getInt(1), id)).as("the deleted source's bucket").hasValue(0);
        }
    }

    private static HttpResponse<String> post(TestKernel k, String slug, String body, String auth) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(k.url() + "/api/v1/events/ingest/" + slug))
                .header("Content-Type", "application/json").header("Authorization", auth)
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
